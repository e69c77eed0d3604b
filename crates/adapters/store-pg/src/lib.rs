//! PostgreSQL store adapter: the diesel schema, the embedded migrations and the
//! implementation of the app's store ports over a pool of `diesel_async` connections.
//!
//! Every tenant-owned query filters by `operator_id` (DESIGN.md §3); the only reads
//! that do not are the two platform-wide lookups the ports define: an API key by its
//! secret's hash and a staff login by e-mail. Signing secrets are sealed at rest
//! (`sealing.rs`) under the data key the store is given.

mod api_keys;
mod database;
mod error;
mod migrate;
mod operators;
mod outbox;
mod pool;
mod rows;
mod schema;
mod sealing;
mod sessions;
mod staff;
mod wallet_adapters;

pub use database::create_database_if_missing;
pub use migrate::run_migrations;
pub use pool::PgStore;
pub use sealing::{DataKey, DataKeyError};
