//! The schema migrations, embedded in the binary so `opinion migrate` and the tests'
//! template database need nothing but a URL.

use diesel::connection::SimpleConnection;
use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use opinion_app::ports::StoreError;

use crate::db::error::unavailable;
use crate::db::target::DatabaseTarget;

/// Every migration under the workspace's `migrations/`.
const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../../migrations");

/// Session advisory lock taken while migrating, so instances started together apply
/// each migration once instead of racing (the bytes spell `opinion`).
const MIGRATION_LOCK: i64 = 0x006f_7069_6e69_6f6e;

/// Runs all pending embedded migrations against `database_url`, with the TLS its
/// `sslmode` and `sslrootcert` ask for (see [`run_migrations_on`]).
pub async fn run_migrations(database_url: &str) -> Result<(), StoreError> {
    run_migrations_on(&DatabaseTarget::new(database_url, None)?).await
}

/// Runs all pending embedded migrations against `target`. Running it again is a no-op;
/// concurrent runs wait for each other.
pub async fn run_migrations_on(target: &DatabaseTarget) -> Result<(), StoreError> {
    let conn = target
        .connect()
        .await
        .map_err(|error| unavailable("cannot connect to migrate", &error))?;
    // diesel's migration harness is synchronous: the documented diesel_async way is a
    // blocking task over `AsyncConnectionWrapper`.
    tokio::task::spawn_blocking(move || migrate_blocking(AsyncConnectionWrapper::from(conn)))
        .await
        .map_err(|error| unavailable("the migration task failed", &error))?
}

fn migrate_blocking(mut conn: AsyncConnectionWrapper<AsyncPgConnection>) -> Result<(), StoreError> {
    conn.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))
        .map_err(|error| unavailable("cannot take the migration lock", &error))?;
    let applied = conn
        .run_pending_migrations(MIGRATIONS)
        .map(|versions| versions.iter().map(ToString::to_string).collect::<Vec<_>>())
        .map_err(|error| unavailable("migration failed", &*error));
    // The lock also ends with the connection; releasing it explicitly lets a waiting
    // instance go on without waiting for the disconnect to be noticed.
    let unlocked = conn
        .batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
        .map_err(|error| unavailable("cannot release the migration lock", &error));
    let applied = applied?;
    unlocked?;
    if !applied.is_empty() {
        tracing::info!(?applied, "applied migrations");
    }
    Ok(())
}
