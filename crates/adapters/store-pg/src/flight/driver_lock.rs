//! The driver lock: a PostgreSQL session advisory lock on [`DRIVER_LOCK_KEY`], held on a
//! connection of its own. The attempt runs on a pooled connection; the one that gets the
//! lock is taken out of the pool for good (the pool may open another in its place), so
//! no request ever borrows the session that holds it. The lease is the connection:
//! dropping it closes the session and PostgreSQL frees the lock; when the holding
//! process dies its session ends the same way, and another instance's next attempt
//! takes over. Advisory locks are per database, so every instance of one environment
//! (one database) competes for the same lock.

use std::time::Duration;

use async_trait::async_trait;
use diesel::sql_types::{BigInt, Bool};
use diesel::{QueryResult, QueryableByName};
use diesel_async::pooled_connection::deadpool::Object;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::ports::{DriverLease, DriverLock};
use opinion_app::ports::StoreError;

use crate::db::error::from_diesel;
use crate::db::pool::PgStore;

/// The advisory lock key of the flight driver: the ASCII bytes `opinflt1` read as a
/// big-endian 64-bit integer (8030034058487297073). No other advisory lock of the
/// platform uses it.
pub const DRIVER_LOCK_KEY: i64 = 0x6f70_696e_666c_7431;

/// How long a liveness check of the lease may take before the lease counts as lost.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// The answer of a lock query.
#[derive(QueryableByName)]
struct Answer {
    #[diesel(sql_type = Bool)]
    yes: bool,
}

/// Asks `sql`, a query of one boolean `yes` bound to the lock key, on `conn`.
async fn ask(conn: &mut AsyncPgConnection, sql: &str) -> QueryResult<bool> {
    let answer: Answer = diesel::sql_query(sql)
        .bind::<BigInt, _>(DRIVER_LOCK_KEY)
        .get_result(conn)
        .await?;
    Ok(answer.yes)
}

/// Whether this session holds the lock: the key is split by PostgreSQL into `classid`
/// (high 32 bits) and `objid` (low 32 bits), with `objsubid = 1` for a single-key lock.
const HELD: &str = "\
SELECT EXISTS (
    SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND objsubid = 1
      AND ((classid::bigint << 32) | objid::bigint) = $1
) AS yes";

/// The lease: the session holding the lock, until it is lost or dropped.
struct PgDriverLease {
    conn: Option<AsyncPgConnection>,
}

#[async_trait]
impl DriverLease for PgDriverLease {
    async fn still_held(&mut self) -> bool {
        let Some(conn) = self.conn.as_mut() else {
            return false;
        };
        let held = match tokio::time::timeout(CHECK_TIMEOUT, ask(conn, HELD)).await {
            Ok(Ok(held)) => held,
            Ok(Err(error)) => {
                tracing::warn!(%error, "the flight driver's lock session failed");
                false
            }
            Err(_) => {
                tracing::warn!("the flight driver's lock session did not answer in time");
                false
            }
        };
        if !held {
            tracing::warn!("the flight driver lost its lock");
            self.conn = None;
        }
        held
    }
}

#[async_trait]
impl DriverLock for PgStore {
    async fn try_acquire(&self) -> Result<Option<Box<dyn DriverLease>>, StoreError> {
        // The lease keeps its session: always a connection of its own, never a step's.
        let mut conn = self.pooled().await?;
        let acquired = ask(&mut conn, "SELECT pg_try_advisory_lock($1) AS yes")
            .await
            .map_err(from_diesel)?;
        if !acquired {
            return Ok(None);
        }
        tracing::info!(key = DRIVER_LOCK_KEY, "this instance drives the flights");
        Ok(Some(Box::new(PgDriverLease {
            conn: Some(Object::take(conn)),
        })))
    }
}
