//! The schema migrations, embedded in the binary so `opinion migrate` and the tests'
//! template database need nothing but a URL.

use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::sql_types::{BigInt, Bool, Integer, Text};
use diesel::{QueryableByName, RunQueryDsl};
use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use opinion_app::ports::StoreError;

use crate::db::error::unavailable;
use crate::db::session_limits::SessionLimits;
use crate::db::target::DatabaseTarget;

/// Every migration under the workspace's `migrations/`.
const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../../migrations");

/// Session advisory lock taken while migrating, so instances started together apply
/// each migration once instead of racing (the bytes spell `opinion`).
pub const MIGRATION_LOCK_KEY: i64 = 0x006f_7069_6e69_6f6e;

/// How long a migration run waits for another run's lock before giving up, naming the
/// session that holds it: far longer than migrating takes, so only a stuck or forgotten
/// session makes an instance fail to start.
pub const MIGRATION_LOCK_WAIT: Duration = Duration::from_secs(120);

/// How often the lock is tried again while another run holds it.
const RETRY_EVERY: Duration = Duration::from_millis(250);

/// The session holding the migration lock, as `pg_stat_activity` shows it.
#[derive(QueryableByName)]
struct Holder {
    #[diesel(sql_type = Integer)]
    pid: i32,
    #[diesel(sql_type = Text)]
    application: String,
    #[diesel(sql_type = Text)]
    client: String,
    #[diesel(sql_type = Text)]
    state: String,
    #[diesel(sql_type = Text)]
    since: String,
}

/// The answer of `pg_try_advisory_lock`.
#[derive(QueryableByName)]
struct Taken {
    #[diesel(sql_type = Bool)]
    yes: bool,
}

/// Who holds an advisory lock of one 64-bit key (`classid` its high, `objid` its low 32
/// bits, `objsubid = 1`).
const HOLDER: &str = "\
SELECT a.pid, coalesce(a.application_name, '') AS application,
       coalesce(host(a.client_addr), 'local socket') AS client, coalesce(a.state, '') AS state,
       coalesce(a.state_change::text, '') AS since
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND ((l.classid::bigint << 32) | l.objid::bigint) = $1";

/// Runs all pending embedded migrations against `database_url`, with the TLS its
/// `sslmode` and `sslrootcert` ask for (see [`run_migrations_on`]).
pub async fn run_migrations(database_url: &str) -> Result<(), StoreError> {
    run_migrations_on(&DatabaseTarget::new(database_url, None)?).await
}

/// Runs all pending embedded migrations against `target`. Running it again is a no-op;
/// concurrent runs wait for each other, at most `MIGRATION_LOCK_WAIT`.
pub async fn run_migrations_on(target: &DatabaseTarget) -> Result<(), StoreError> {
    run_migrations_within(target, MIGRATION_LOCK_WAIT).await
}

/// Runs all pending embedded migrations against `target`, waiting at most `wait` for
/// another run's lock; past it, fails naming the session that holds the lock. The
/// session has no statement time limit (a migration over a large table may take
/// longer than any request); its lock wait and idle limits are the target's.
pub async fn run_migrations_within(target: &DatabaseTarget, wait: Duration) -> Result<(), StoreError> {
    let target = target
        .clone()
        .with_limits(SessionLimits::unbounded_statements(target.limits()));
    let conn = target
        .connect()
        .await
        .map_err(|error| unavailable("cannot connect to migrate", &error))?;
    // diesel's migration harness is synchronous: the documented diesel_async way is a
    // blocking task over `AsyncConnectionWrapper`.
    tokio::task::spawn_blocking(move || migrate_blocking(AsyncConnectionWrapper::from(conn), wait))
        .await
        .map_err(|error| unavailable("the migration task failed", &error))?
}

/// Takes the migration lock, trying again until `wait` has passed.
fn lock_blocking(conn: &mut AsyncConnectionWrapper<AsyncPgConnection>, wait: Duration) -> Result<(), StoreError> {
    let deadline = Instant::now() + wait;
    loop {
        let taken: Taken = diesel::sql_query("SELECT pg_try_advisory_lock($1) AS yes")
            .bind::<BigInt, _>(MIGRATION_LOCK_KEY)
            .get_result(conn)
            .map_err(|error| unavailable("cannot take the migration lock", &error))?;
        if taken.yes {
            return Ok(());
        }
        if Instant::now() >= deadline {
            let holder = diesel::sql_query(HOLDER)
                .bind::<BigInt, _>(MIGRATION_LOCK_KEY)
                .get_result::<Holder>(conn)
                .map(|h| {
                    format!(
                        "PostgreSQL session {} (application `{}`, client {}, {} since {})",
                        h.pid, h.application, h.client, h.state, h.since
                    )
                })
                .unwrap_or_else(|_| "a session that has just ended".to_owned());
            return Err(unavailable(
                "cannot take the migration lock",
                &format_args!("another migration run held it for {wait:?}: {holder}"),
            ));
        }
        std::thread::sleep(RETRY_EVERY);
    }
}

fn migrate_blocking(mut conn: AsyncConnectionWrapper<AsyncPgConnection>, wait: Duration) -> Result<(), StoreError> {
    lock_blocking(&mut conn, wait)?;
    let applied = conn
        .run_pending_migrations(MIGRATIONS)
        .map(|versions| versions.iter().map(ToString::to_string).collect::<Vec<_>>())
        .map_err(|error| unavailable("migration failed", &*error));
    // The lock also ends with the connection; releasing it explicitly lets a waiting
    // instance go on without waiting for the disconnect to be noticed.
    let unlocked = conn
        .batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))
        .map_err(|error| unavailable("cannot release the migration lock", &error));
    let applied = applied?;
    unlocked?;
    if !applied.is_empty() {
        tracing::info!(?applied, "applied migrations");
    }
    Ok(())
}
