//! Test harness: every test gets its own freshly migrated PostgreSQL database, so tests run in
//! parallel without sharing state, without fixed ports and without leftovers. Real HTTP servers
//! on port 0 stand in for operators' services: [`WebhookSink`] receives webhooks,
//! [`ScriptedServer`] answers byte for byte from a script (connections dropped or held
//! included), and [`FakeWallet`] is a wallet adapter that obeys the contract and commits faults
//! on request; [`ManualClock`] is a clock the test moves.
//!
//! The server is the one `DATABASE_URL` points at, or else one private throwaway cluster per test
//! process ([`opinion_devdb::Cluster::start_ephemeral`]). The migrations run once per process into a
//! template database; each test's database is a cheap copy of it.
//!
//! [`TlsServer`] is a second private cluster serving TLS under a self-made CA, for tests of
//! the service's database TLS.
//!
//! [`Seeder`] inserts trading rows straight into a test database, for tests of reads.

mod admin;
mod database;
mod fake_wallet;
mod http_wire;
mod manual_clock;
mod names;
mod scripted;
mod seed;
mod server;
mod tls_server;
mod webhook_sink;

pub use database::TestDatabase;
pub use fake_wallet::{Breakage, FakeWallet, Fault, FaultSource, LedgerAnswer, LedgerEntry, SignatureCheck};
pub use http_wire::WireRequest;
pub use manual_clock::ManualClock;
pub use scripted::{ScriptedReply, ScriptedServer};
pub use seed::{
    ChainSeed, DeliverySeed, FlightOperationSeed, FlightSeed, MarketSeed, PoolSeed, PositionSeed, RedemptionSeed,
    ResolutionSeed, Seeder, StepSeed, TermsSeed, TicketSeed, TradeSeed, UserSeed, WalletOperationSeed, ulid_at,
};
pub use tls_server::{TLS_HOST, TlsServer};
pub use webhook_sink::{ReceivedRequest, Reply, WebhookSink};
