//! Re-sealing every sealed value under the current data key (a data key rotation), and
//! sealing the webhook signing secrets an earlier release stored in clear. Work goes in
//! batches, each one transaction over rows it locks, so a run may stop anywhere and a
//! later run finishes the job: a value the current key sealed is never selected again.
//! A value keeps its place (the associated data), so it stays bound to its row and slot.

use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Nullable, Text, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::ports::StoreError;
use uuid::Uuid;

use crate::db::error::{from_diesel, unavailable};
use crate::db::pool::PgStore;
use crate::db::sealed_places::{SEALED_COLUMNS, SealedColumn, webhook_endpoint_secret};
use crate::db::sealing::DataKey;

/// How the values of one sealed column stand, by the key that sealed them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedValues {
    /// The table.
    pub table: &'static str,
    /// The sealed column.
    pub column: &'static str,
    /// Sealed by the current data key: nothing left to do.
    pub under_current_key: u64,
    /// Sealed by the previous data key: a rotation re-seals them.
    pub under_previous_key: u64,
    /// Sealed before values named their key: a rotation re-seals them (with either key).
    pub without_key_id: u64,
    /// Sealed by a key that is neither: no configured key opens them.
    pub under_other_keys: u64,
}

/// Every sealed column's standing, and the webhook secrets still in clear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealingStatus {
    /// The current data key's id.
    pub key_id: String,
    /// The previous data key's id, during a rotation.
    pub previous_key_id: Option<String>,
    /// Each sealed column.
    pub columns: Vec<SealedValues>,
    /// Webhook signing secrets (current and previous) not sealed yet.
    pub clear_webhook_secrets: u64,
}

impl SealingStatus {
    /// Values not sealed by the current key: what a rotation still has to do.
    pub fn remaining(&self) -> u64 {
        let sealed: u64 = self
            .columns
            .iter()
            .map(|c| c.under_previous_key + c.without_key_id + c.under_other_keys)
            .sum();
        sealed + self.clear_webhook_secrets
    }
}

/// Where a re-sealing run stands: the column it is in and the last row it passed.
#[derive(Debug, Clone, Default)]
pub struct ResealCursor {
    column: usize,
    after: Option<(Uuid, Uuid)>,
}

impl ResealCursor {
    /// Whether every column has been walked.
    pub fn finished(&self) -> bool {
        self.column >= SEALED_COLUMNS.len()
    }
}

/// What one re-sealing batch did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResealedBatch {
    /// The table.
    pub table: &'static str,
    /// The sealed column.
    pub column: &'static str,
    /// Values now sealed by the current key.
    pub resealed: u64,
    /// Values no configured key opens, left as they are.
    pub unopenable: u64,
}

#[derive(QueryableByName)]
struct Counts {
    #[diesel(sql_type = BigInt)]
    current: i64,
    #[diesel(sql_type = BigInt)]
    previous: i64,
    #[diesel(sql_type = BigInt)]
    legacy: i64,
    #[diesel(sql_type = BigInt)]
    total: i64,
}

#[derive(QueryableByName)]
struct Clear {
    #[diesel(sql_type = BigInt)]
    clear: i64,
}

#[derive(QueryableByName)]
struct SealedRow {
    #[diesel(sql_type = SqlUuid)]
    k0: Uuid,
    #[diesel(sql_type = SqlUuid)]
    k1: Uuid,
    #[diesel(sql_type = Text)]
    sealed: String,
}

#[derive(QueryableByName)]
struct ClearRow {
    #[diesel(sql_type = SqlUuid)]
    operator_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
    #[diesel(sql_type = Nullable<Text>)]
    secret: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    previous_secret: Option<String>,
}

/// Why a batch was rolled back.
enum Failure {
    Database(DieselError),
    Seal,
}

impl From<DieselError> for Failure {
    fn from(error: DieselError) -> Self {
        Self::Database(error)
    }
}

impl From<Failure> for StoreError {
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Database(error) => from_diesel(error),
            Failure::Seal => unavailable("cannot seal a secret", &"the data key failed to seal"),
        }
    }
}

/// The second key column of `column`'s table as SQL: a constant for one-column keys.
fn second_key(column: &SealedColumn) -> String {
    column
        .key
        .get(1)
        .map_or_else(|| format!("'{}'::uuid", Uuid::nil()), |name| (*name).to_owned())
}

fn count(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// The `LIKE` pattern of values the key `id` sealed.
fn sealed_by(id: &str) -> String {
    format!("v2.{id}.%")
}

impl PgStore {
    /// How every sealed column stands against the store's data keys.
    pub async fn sealing_status(&self) -> Result<SealingStatus, StoreError> {
        let key = self.data_key()?;
        let mut conn = self.conn().await?;
        let mut columns = Vec::with_capacity(SEALED_COLUMNS.len());
        for column in SEALED_COLUMNS {
            let (table, name) = (column.table, column.column);
            let counts: Counts = sql_query(format!(
                "SELECT count(*) FILTER (WHERE {name} LIKE $1) AS current, \
                 count(*) FILTER (WHERE {name} LIKE $2) AS previous, \
                 count(*) FILTER (WHERE {name} LIKE 'v1.%') AS legacy, \
                 count(*) AS total FROM {table} WHERE {name} IS NOT NULL"
            ))
            .bind::<Text, _>(sealed_by(key.id()))
            .bind::<Nullable<Text>, _>(key.previous_id().map(sealed_by))
            .get_result(&mut conn)
            .await
            .map_err(from_diesel)?;
            let (current, previous, legacy) = (count(counts.current), count(counts.previous), count(counts.legacy));
            columns.push(SealedValues {
                table,
                column: name,
                under_current_key: current,
                under_previous_key: previous,
                without_key_id: legacy,
                under_other_keys: count(counts.total).saturating_sub(current + previous + legacy),
            });
        }
        let clear: Clear = sql_query(
            "SELECT count(*) FILTER (WHERE secret IS NOT NULL) \
             + count(*) FILTER (WHERE previous_secret IS NOT NULL) AS clear FROM webhook_endpoints",
        )
        .get_result(&mut conn)
        .await
        .map_err(from_diesel)?;
        Ok(SealingStatus {
            key_id: key.id().to_owned(),
            previous_key_id: key.previous_id().map(str::to_owned),
            columns,
            clear_webhook_secrets: count(clear.clear),
        })
    }

    /// Seals up to `batch_size` webhook endpoints' clear secrets under the current key, in
    /// one transaction; returns how many endpoints it sealed (0: none is left in clear).
    pub async fn seal_clear_webhook_secrets(&self, batch_size: u32) -> Result<u64, StoreError> {
        let key = self.data_key()?;
        let mut conn = self.conn().await?;
        let sealed = conn
            .transaction::<_, Failure, _>(async |conn| {
                let rows: Vec<ClearRow> = sql_query(
                    "SELECT operator_id, id, secret, previous_secret FROM webhook_endpoints \
                     WHERE secret IS NOT NULL OR previous_secret IS NOT NULL \
                     ORDER BY operator_id, id LIMIT $1 FOR UPDATE",
                )
                .bind::<BigInt, _>(i64::from(batch_size))
                .load(conn)
                .await?;
                for row in &rows {
                    seal_clear_row(conn, key, row).await?;
                }
                Ok(rows.len())
            })
            .await?;
        if sealed > 0 {
            tracing::info!(endpoints = sealed, "sealed webhook signing secrets kept in clear");
        }
        Ok(u64::try_from(sealed).unwrap_or(u64::MAX))
    }

    /// Re-seals the next batch of at most `batch_size` values not sealed by the current
    /// key, from where `cursor` stands, in one transaction, and moves the cursor on. A
    /// batch covers one column; `None` once every column has been walked.
    pub async fn reseal_next(
        &self,
        cursor: &mut ResealCursor,
        batch_size: u32,
    ) -> Result<Option<ResealedBatch>, StoreError> {
        let Some(column) = SEALED_COLUMNS.get(cursor.column) else {
            return Ok(None);
        };
        let key = self.data_key()?;
        let after = cursor.after;
        let mut conn = self.conn().await?;
        let (seen, last, resealed, unopenable) = conn
            .transaction::<_, Failure, _>(async |conn| reseal_batch(conn, key, column, after, batch_size).await)
            .await?;
        if seen < batch_size as usize {
            *cursor = ResealCursor {
                column: cursor.column + 1,
                after: None,
            };
        } else {
            cursor.after = last;
        }
        Ok(Some(ResealedBatch {
            table: column.table,
            column: column.column,
            resealed,
            unopenable,
        }))
    }
}

/// Seals one endpoint's clear secrets and clears them.
async fn seal_clear_row(conn: &mut AsyncPgConnection, key: &DataKey, row: &ClearRow) -> Result<(), Failure> {
    let seal = |clear: &Option<String>, slot: &str| {
        clear
            .as_deref()
            .map(|clear| {
                key.seal(
                    clear.as_bytes(),
                    &webhook_endpoint_secret(row.operator_id, row.id, slot),
                )
            })
            .transpose()
            .map_err(|_| Failure::Seal)
    };
    sql_query(
        "UPDATE webhook_endpoints SET secret_sealed = COALESCE($3, secret_sealed), secret = NULL, \
         previous_secret_sealed = COALESCE($4, previous_secret_sealed), previous_secret = NULL \
         WHERE operator_id = $1 AND id = $2",
    )
    .bind::<SqlUuid, _>(row.operator_id)
    .bind::<SqlUuid, _>(row.id)
    .bind::<Nullable<Text>, _>(seal(&row.secret, "current")?)
    .bind::<Nullable<Text>, _>(seal(&row.previous_secret, "previous")?)
    .execute(conn)
    .await?;
    Ok(())
}

/// One batch of `column`: rows seen, the last key seen, values re-sealed, values no key
/// opens.
async fn reseal_batch(
    conn: &mut AsyncPgConnection,
    key: &DataKey,
    column: &SealedColumn,
    after: Option<(Uuid, Uuid)>,
    batch_size: u32,
) -> Result<(usize, Option<(Uuid, Uuid)>, u64, u64), Failure> {
    let (table, name, k0, k1) = (column.table, column.column, column.key[0], second_key(column));
    let rows: Vec<SealedRow> = sql_query(format!(
        "SELECT {k0} AS k0, {k1} AS k1, {name} AS sealed FROM {table} \
         WHERE {name} IS NOT NULL AND {name} NOT LIKE $1 \
         AND ($2::uuid IS NULL OR ({k0}, {k1}) > ($2, $3)) \
         ORDER BY {k0}, {k1} LIMIT $4 FOR UPDATE"
    ))
    .bind::<Text, _>(sealed_by(key.id()))
    .bind::<Nullable<SqlUuid>, _>(after.map(|(first, _)| first))
    .bind::<Nullable<SqlUuid>, _>(after.map(|(_, second)| second))
    .bind::<BigInt, _>(i64::from(batch_size))
    .load(conn)
    .await?;
    let update = format!("UPDATE {table} SET {name} = $1 WHERE {k0} = $2 AND {k1} = $3");
    let (mut resealed, mut unopenable) = (0, 0);
    for row in &rows {
        let keys: Vec<Uuid> = [row.k0, row.k1].into_iter().take(column.key.len()).collect();
        let place = (column.place)(&keys);
        let Ok(secret) = key.open(&row.sealed, &place) else {
            tracing::warn!(table, column = name, row = ?keys, "a sealed value opens with no configured data key");
            unopenable += 1;
            continue;
        };
        let sealed = key.seal(&secret, &place).map_err(|_| Failure::Seal)?;
        sql_query(&update)
            .bind::<Text, _>(sealed)
            .bind::<SqlUuid, _>(row.k0)
            .bind::<SqlUuid, _>(row.k1)
            .execute(conn)
            .await?;
        resealed += 1;
    }
    let last = rows.last().map(|row| (row.k0, row.k1));
    Ok((rows.len(), last, resealed, unopenable))
}
