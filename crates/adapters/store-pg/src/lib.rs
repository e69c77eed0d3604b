//! PostgreSQL store adapter: the diesel schema, the embedded migrations and the
//! implementation of the app's store ports over a pool of `diesel_async` connections.
//!
//! Every tenant-owned query filters by `operator_id` (DESIGN.md §3); the only reads
//! that do not are the two platform-wide lookups the ports define: an API key by its
//! secret's hash and a staff login by e-mail.

mod api_keys;
mod database;
mod error;
mod market_visibility;
mod migrate;
mod operator_reads;
mod operators;
mod outbox;
mod pool;
mod rows;
mod schema;
mod sessions;
mod staff;
mod trading_rows;

pub use database::create_database_if_missing;
pub use migrate::run_migrations;
pub use pool::PgStore;
