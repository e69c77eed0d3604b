//! The wallet adapter client (`docs/operator/wallet-adapter.md`): implements the app's
//! `WalletGateway` port with signed REST v1 calls over reqwest.
//!
//! Its one duty beyond sending is to report honestly what it observed
//! (`opinion_wallet::TransportOutcome`), because that decides between "may be sent again"
//! and manual review: `NotSent` only when provably no byte of the request was written
//! (name resolution failed, connection refused or not established in time, TLS
//! handshake failed, a forbidden address); a time-out after that, a broken connection or
//! an answer cut short are `TimedOut` / `ConnectionLostAfterSend`. What an outcome means
//! is `opinion_wallet::classify`'s business, not this crate's.
//!
//! | concern | file |
//! |---|---|
//! | the port implementation, signing, tracing | `gateway.rs` |
//! | one POST and what was observed of it | `exchange.rs` |
//! | the wallet test's exact calls (`WalletGateway::probe`) | `probe.rs` |
//! | HTTP clients per connect time-out, no redirects, no proxies | `clients.rs` |
//! | production address checks, at every call and every resolution | `address_policy.rs` |
//! | the `requestedAt` time format | `timestamp.rs` |

mod address_policy;
mod clients;
mod exchange;
mod gateway;
mod probe;
mod timestamp;

pub use address_policy::AddressPolicy;
pub use exchange::MAX_ANSWER_BYTES;
pub use gateway::HttpWalletGateway;
