//! PostgreSQL store adapter: the diesel schema, the embedded migrations and the
//! implementation of the app's store ports over a pool of `diesel_async` connections.
//!
//! Every tenant-owned query filters by `operator_id` (DESIGN.md §3); the only reads
//! that do not are the two platform-wide lookups the ports define: an API key by its
//! secret's hash and a staff login by e-mail. Signing secrets are sealed at rest
//! (`db/sealing.rs`) under the data key the store is given.
//!
//! One folder per feature, as in the app: `access/`, `wallet/`, `webhooks/`, `opinion/`
//! (`trading/`, `settlement/`, `reads/`), `flight/` and `simulator/`; `db/` holds what
//! they share. `PgStore` implements every port, the flight product's `FlightStore` and
//! `DriverLock` included (the latter on a connection it takes out of the pool).

mod access;
mod db;
mod flight;
mod operations;
mod opinion;
mod players;
mod simulator;
mod wallet;
mod webhooks;

pub use db::database::create_database_if_missing;
pub use db::migrate::{
    MIGRATION_LOCK_KEY, MIGRATION_LOCK_WAIT, run_migrations, run_migrations_on, run_migrations_within,
};
pub use db::pool::{DEFAULT_ACQUIRE_TIMEOUT, PgStore};
pub use db::resealing::{ResealCursor, ResealedBatch, SealedValues, SealingStatus};
pub use db::sealing::{DataKey, DataKeyError};
pub use db::session_limits::SessionLimits;
pub use db::target::DatabaseTarget;
pub use db::tls::sslmode::SslMode;
pub use flight::driver_lock::DRIVER_LOCK_KEY;
