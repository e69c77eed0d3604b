//! Signed statements, pure: a statement is a JSON document, canonicalized with RFC 8785
//! (JCS), hashed with SHA-256 and signed with Ed25519 under a key id that the document
//! itself names; one operator's statements form a hash chain (each names the hash and
//! sequence of the one before), so none can be altered, dropped or reordered unnoticed.
//! Keys are the caller's: this crate never reads a file, a clock or randomness.
//!
//! | rule | file |
//! |---|---|
//! | the canonical bytes of a document and its SHA-256 hash | `canonical.rs` |
//! | Ed25519 signing keys, public keys and their key ids | `key.rs` |
//! | signing a document and verifying a signed one | `signed.rs` |
//! | the chain: first link, next link, verifying a link | `chain.rs` |

mod canonical;
mod chain;
mod key;
mod signed;

pub use canonical::{CanonicalError, DocumentHash, canonical_bytes, document_hash};
pub use chain::{ChainError, ChainLink, verify_link};
pub use key::{KeyError, KeyId, PublicKey, StatementKey};
pub use signed::{DocumentSignature, KnownKey, SignError, SignedDocument, VerifyError, sign, verify};
