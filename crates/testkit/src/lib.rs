//! Test harness: every test gets its own freshly migrated PostgreSQL database, so tests run in
//! parallel without sharing state, without fixed ports and without leftovers.
//!
//! The server is the one `DATABASE_URL` points at, or else one private throwaway cluster per test
//! process ([`opinion_devdb::Cluster::start_ephemeral`]). The migrations run once per process into a
//! template database; each test's database is a cheap copy of it.
//!
//! [`Seeder`] inserts trading rows straight into a test database, for tests of reads.

mod admin;
mod database;
mod names;
mod seed;
mod server;

pub use database::TestDatabase;
pub use seed::{
    MarketSeed, PoolSeed, PositionSeed, RedemptionSeed, ResolutionSeed, Seeder, StepSeed, TradeSeed, UserSeed,
    WalletOperationSeed, ulid_at,
};
