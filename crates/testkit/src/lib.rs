//! Test harness: every test gets its own freshly migrated PostgreSQL database, so tests run in
//! parallel without sharing state, without fixed ports and without leftovers; a webhook
//! receiver on a free port ([`WebhookSink`]) and a clock the test moves ([`ManualClock`]).
//!
//! The server is the one `DATABASE_URL` points at, or else one private throwaway cluster per test
//! process ([`opinion_devdb::Cluster::start_ephemeral`]). The migrations run once per process into a
//! template database; each test's database is a cheap copy of it.

mod admin;
mod database;
mod manual_clock;
mod names;
mod server;
mod webhook_sink;

pub use database::TestDatabase;
pub use manual_clock::ManualClock;
pub use webhook_sink::{ReceivedRequest, Reply, WebhookSink};
