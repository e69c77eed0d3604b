//! `LoginAttemptStore`: the staff login throttling counters. A decision locks every row
//! it needs, creating the missing ones, in key order (so two logins naming the same rows
//! never wait on each other in a circle), lets `LoginThrottle` decide and writes the
//! result, all in one transaction: instances count into the same rows.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_access::{AttemptCounter, LoginThrottle, ThrottleKey, ThrottleKind};
use opinion_app::access::ports::LoginAttemptStore;
use opinion_app::ports::StoreError;
use time::{Duration, OffsetDateTime};

use crate::db::error::from_diesel;
use crate::db::pool::PgStore;
use crate::db::schema::staff_login_attempts as attempts;

/// A counter's row.
#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = attempts, check_for_backend(diesel::pg::Pg))]
struct CounterRow {
    kind: String,
    key_hash: Vec<u8>,
    window_started_at: OffsetDateTime,
    attempts: i32,
    locked_until: Option<OffsetDateTime>,
    lockouts: i32,
    updated_at: OffsetDateTime,
}

impl CounterRow {
    fn new(key: &ThrottleKey, counter: &AttemptCounter) -> Self {
        Self {
            kind: key.kind.as_str().to_owned(),
            key_hash: key.hash.to_vec(),
            window_started_at: counter.window_started_at,
            attempts: i32::try_from(counter.attempts).unwrap_or(i32::MAX),
            locked_until: counter.locked_until,
            lockouts: i32::try_from(counter.lockouts).unwrap_or(i32::MAX),
            updated_at: counter.updated_at,
        }
    }

    fn counter(&self) -> AttemptCounter {
        AttemptCounter {
            window_started_at: self.window_started_at,
            attempts: u32::try_from(self.attempts).unwrap_or(0),
            locked_until: self.locked_until,
            lockouts: u32::try_from(self.lockouts).unwrap_or(0),
            updated_at: self.updated_at,
        }
    }
}

/// `keys` sorted and without repeats: the order rows are created and locked in.
fn ordered(keys: &[ThrottleKey]) -> Vec<ThrottleKey> {
    let mut keys = keys.to_vec();
    keys.sort();
    keys.dedup();
    keys
}

/// Locks and reads the counters of `keys`, in key order, creating the missing ones fresh
/// as of `at`; each key with its counter. One statement per key (an insert that, on
/// conflict, takes the row lock without changing the row), so a counter pruned
/// meanwhile is simply created again.
async fn lock_counters(
    conn: &mut AsyncPgConnection,
    keys: &[ThrottleKey],
    at: OffsetDateTime,
) -> Result<Vec<(ThrottleKey, AttemptCounter)>, DieselError> {
    let fresh = AttemptCounter::fresh(at);
    let mut locked = Vec::with_capacity(keys.len());
    for key in keys {
        let row: CounterRow = diesel::insert_into(attempts::table)
            .values(CounterRow::new(key, &fresh))
            .on_conflict((attempts::kind, attempts::key_hash))
            .do_update()
            .set(attempts::updated_at.eq(attempts::updated_at))
            .returning(CounterRow::as_returning())
            .get_result(conn)
            .await?;
        locked.push((*key, row.counter()));
    }
    Ok(locked)
}

async fn write_counter(
    conn: &mut AsyncPgConnection,
    key: &ThrottleKey,
    counter: &AttemptCounter,
) -> Result<(), DieselError> {
    diesel::update(attempts::table.find((key.kind.as_str(), key.hash.to_vec())))
        .set(CounterRow::new(key, counter))
        .execute(conn)
        .await
        .map(drop)
}

#[async_trait]
impl LoginAttemptStore for PgStore {
    #[tracing::instrument(skip_all)]
    async fn admit_login_attempt(
        &self,
        keys: &[ThrottleKey],
        throttle: &LoginThrottle,
        at: OffsetDateTime,
    ) -> Result<Option<Duration>, StoreError> {
        let keys = ordered(keys);
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            let locked = lock_counters(conn, &keys, at).await?;
            let counters: Vec<(ThrottleKind, Option<AttemptCounter>)> =
                locked.iter().map(|(key, counter)| (key.kind, Some(*counter))).collect();
            let admission = throttle.admit(&counters, at);
            for ((key, _), counter) in locked.iter().zip(&admission.counters) {
                if let Some(counter) = counter {
                    write_counter(conn, key, counter).await?;
                }
            }
            Ok(admission.retry_after)
        })
        .await
        .map_err(from_diesel)
    }

    #[tracing::instrument(skip_all)]
    async fn record_login_success(
        &self,
        keys: &[ThrottleKey],
        throttle: &LoginThrottle,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let keys = ordered(keys);
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            for (key, counter) in lock_counters(conn, &keys, at).await? {
                let counter = throttle.succeeded(key.kind, Some(counter), at);
                write_counter(conn, &key, &counter).await?;
            }
            Ok(())
        })
        .await
        .map_err(from_diesel)
    }

    #[tracing::instrument(skip_all)]
    async fn prune_login_attempts(&self, before: OffsetDateTime, limit: u32) -> Result<usize, StoreError> {
        let mut conn = self.conn().await?;
        diesel::sql_query(
            "DELETE FROM staff_login_attempts WHERE (kind, key_hash) IN (\
               SELECT kind, key_hash FROM staff_login_attempts WHERE updated_at < $1 \
               ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)",
        )
        .bind::<diesel::sql_types::Timestamptz, _>(before)
        .bind::<diesel::sql_types::BigInt, _>(i64::from(limit))
        .execute(&mut conn)
        .await
        .map_err(from_diesel)
    }
}
