//! Use cases of the Opinion platform, written over port traits so that they can be
//! tested with mocks and driven by any adapter (HTTP API, admin command).
//!
//! One room per feature, each with its use cases and the ports it owns: `access`
//! (operators, keys, staff, sessions), `players` (launch and player sessions, shared by
//! every product), `wallet` (the operator's wallet adapter and its full-contract test),
//! `webhooks`, `opinion` (markets, trading, settlement, reads), `flight` (the crash game,
//! its tickets and money), `simulator` and `operations` (what a metrics scrape reads). Ports
//! shared by every room (time, randomness, store failures) are in `ports`; the records
//! the rooms share are in `model`.

pub mod access;
pub mod error;
pub mod flight;
pub mod model;
pub mod operations;
pub mod opinion;
pub mod players;
pub mod ports;
pub mod simulator;
pub mod wallet;
pub mod webhooks;

mod signed_tokens;

#[cfg(test)]
mod test_support;
