//! Test harness: every test gets its own freshly migrated PostgreSQL database, so tests run in
//! parallel without sharing state, without fixed ports and without leftovers. Real HTTP servers
//! on port 0 stand in for operators' services: [`ScriptedServer`] answers from a script, and
//! [`FakeWallet`] is a wallet adapter that obeys the contract and commits faults on request.
//!
//! The server is the one `DATABASE_URL` points at, or else one private throwaway cluster per test
//! process ([`opinion_devdb::Cluster::start_ephemeral`]). The migrations run once per process into a
//! template database; each test's database is a cheap copy of it.

mod admin;
mod database;
mod fake_wallet;
mod http_wire;
mod names;
mod scripted;
mod server;

pub use database::TestDatabase;
pub use fake_wallet::{FakeWallet, Fault, LedgerAnswer, LedgerEntry, SignatureCheck};
pub use http_wire::ReceivedRequest;
pub use scripted::{Reply, ScriptedServer};
