//! The v5 mixed-money anonymous proof of flight statements, pure: a Merkle tree with RFC
//! 6962 hashing over a statement's ticket lines in ticket order, each line naming its
//! player by a per-statement tag and every amount by its currency; the statement signs the
//! tree's root and leaf count with `"proofVersion": 5`, and anyone shown a ticket's
//! inclusion proof checks that the ticket is counted without learning who else played.
//! Beside it, the comparison-only evidence of an exchange rate, which no amount is
//! computed from. Random bytes and times are the caller's; nothing here does I/O.
//!
//! | rule | file |
//! |---|---|
//! | leaf and node hashing, the empty root | `tree_hash.rs` |
//! | the root of lines streamed in order, in `O(log n)` memory; the recursive root | `root_builder.rs` |
//! | a leaf's audit path (which subtrees), its inclusion proof and verification | `inclusion.rs` |
//! | `playerTag = hex(HMAC-SHA256(statementPlayerKey, externalUserId))` | `player_tag.rs` |
//! | money with its currency, per-currency totals, no cross-currency sum | `money.rs` |
//! | a ticket's line (one leaf): its fields and canonical bytes | `line.rs` |
//! | `proofVersion` is exactly 5 | `version.rs` |
//! | an exchange rate (a positive decimal string) and a currency pair | `exchange_quote.rs` |
//! | the exchange evidence: a frozen quote or why there is none | `exchange_evidence.rs` |
//! | what a statement carries of the proof, its money from the totals alone | `statement.rs` |
//! | what a correction carries: the amended statement's tree, its money with currency | `correction.rs` |
//! | what a store keeps (leaf hashes, block roots) and how a proof is rebuilt from it | `stored.rs` |
//! | the ticket-lines CSV read back into the tree and totals it gives | `lines_csv.rs` |
//! | a verifier's checks of a statement: its lines give its root and its totals | `verify_statement.rs` |
//! | a verifier's checks of a correction: its arithmetic, the statement it amends | `verify_correction.rs` |
//! | every check of a statement with its lines, player key and previous document, named | `statement_verification.rs` |

#![warn(missing_docs)]

mod correction;
mod exchange_evidence;
mod exchange_quote;
mod inclusion;
mod line;
mod lines_csv;
mod money;
mod player_tag;
mod root_builder;
mod statement;
mod statement_verification;
mod stored;
mod tree_hash;
mod verify_correction;
mod verify_statement;
mod version;

pub use correction::{CorrectionMoney, write_correction_proof_fields};
pub use exchange_evidence::{
    EvidenceUse, ExchangeEvidence, Quote, RawSha256, RawSha256Error, Unavailable, UnavailableReason,
};
pub use exchange_quote::{CurrencyPair, CurrencyPairError, ExchangeRate, ExchangeRateError, reporting_pair};
pub use inclusion::{InclusionProof, ProofError, audit_path_ranges};
pub use line::{LineOutcome, ProofLine};
pub use lines_csv::{CsvLine, LINE_COLUMNS, LinesCsvError, RecomputedLines, recompute_lines};
pub use money::{Money, MoneyError, MoneyTotals};
pub use player_tag::{PlayerKey, PlayerKeyError, PlayerTag, PlayerTagError};
pub use root_builder::{MisalignedSubtree, RootBuilder, root_of};
pub use statement::{ProofSummary, StatementMoney, StatementProofBuilder, write_proof_fields};
pub use statement_verification::{StatementEvidence, StatementVerification, VerificationCheck, verify_statement};
pub use stored::{BLOCK_LEAVES, BlockRoots, SubtreePieces};
pub use tree_hash::{TreeHash, TreeHashError, empty_root, leaf_hash, node_hash};
pub use verify_correction::{
    AmendsError, ArithmeticError, CORRECTION_TYPE, STATEMENT_TYPE, check_amends, check_correction_arithmetic,
};
pub use verify_statement::{TotalsMismatch, TreeMismatch, check_totals, check_tree};
pub use version::{PROOF_VERSION, PROOF_VERSION_FIELD, ProofVersionError, check_proof_version};
