//! The operator's executed trades per UTC day, and its wallet operations in manual review,
//! for the dashboard's overview. The window is turned into an id range (ids are
//! time-ordered), so the trades' primary key serves it; the reviews count uses the
//! partial index `wallet_operations_in_review`.

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Date, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::opinion::reads::ports::DailyTrading;
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use time::OffsetDateTime;

use crate::db::error::from_diesel;
use crate::db::ids::{first_ulid_at, uuid_of};

const DAILY: &str = "
    SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
           count(*) AS trades,
           coalesce(sum(amount), 0)::int8 AS volume,
           count(DISTINCT user_id) AS players
      FROM trades
     WHERE operator_id = $1 AND id >= $2 AND created_at >= $3 AND status = 'executed'
     GROUP BY 1
     ORDER BY 1";

const REVIEWS: &str = "
    SELECT count(*) AS open FROM wallet_operations WHERE operator_id = $1 AND state = 'manual_review'";

#[derive(QueryableByName)]
struct DayRow {
    #[diesel(sql_type = Date)]
    day: time::Date,
    #[diesel(sql_type = BigInt)]
    trades: i64,
    #[diesel(sql_type = BigInt)]
    volume: i64,
    #[diesel(sql_type = BigInt)]
    players: i64,
}

#[derive(QueryableByName)]
struct CountRow {
    #[diesel(sql_type = BigInt)]
    open: i64,
}

/// Executed trades per UTC day from `from` on.
pub(super) async fn daily(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    from: OffsetDateTime,
) -> Result<Vec<DailyTrading>, StoreError> {
    let rows: Vec<DayRow> = diesel::sql_query(DAILY)
        .bind::<SqlUuid, _>(uuid_of(operator))
        .bind::<SqlUuid, _>(first_ulid_at(from))
        .bind::<diesel::sql_types::Timestamptz, _>(from)
        .load(conn)
        .await
        .map_err(from_diesel)?;
    Ok(rows
        .into_iter()
        .map(|row| DailyTrading {
            day: row.day,
            trades: row.trades.unsigned_abs(),
            volume: row.volume,
            players: row.players.unsigned_abs(),
        })
        .collect())
}

/// The operator's wallet operations waiting in manual review.
pub(super) async fn reviews(conn: &mut AsyncPgConnection, operator: OperatorId) -> Result<u64, StoreError> {
    let row: CountRow = diesel::sql_query(REVIEWS)
        .bind::<SqlUuid, _>(uuid_of(operator))
        .get_result(conn)
        .await
        .map_err(from_diesel)?;
    Ok(row.open.unsigned_abs())
}
