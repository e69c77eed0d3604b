//! The periods an operator's report list shows: every calendar month (UTC) in which it
//! bought a ticket, found by a loose index scan (each step one backward probe of
//! `flight_tickets_by_purchase` for the latest ticket before the month found last, so a
//! page costs one probe per month whatever the months hold), and every month with a
//! finalized report.

use diesel::sql_types::{Integer, Timestamptz, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;

/// Later than any ticket: where the first page starts.
const NEVER: OffsetDateTime = datetime!(9999-01-01 00:00 UTC);

const PERIODS: &str = "\
WITH RECURSIVE ticket_months(month, depth) AS ( \
    SELECT date_trunc('month', max(created_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', 1 \
      FROM flight_tickets WHERE operator_id = $1 AND created_at < $2 \
  UNION ALL \
    SELECT (SELECT date_trunc('month', max(t.created_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' \
              FROM flight_tickets t WHERE t.operator_id = $1 AND t.created_at < m.month), \
           m.depth + 1 \
      FROM ticket_months m WHERE m.month IS NOT NULL AND m.depth < $3 \
) \
SELECT month AS period_start FROM ticket_months WHERE month IS NOT NULL \
UNION \
SELECT period_start FROM flight_settlement_reports WHERE operator_id = $1 AND period_start < $2 \
ORDER BY period_start DESC LIMIT $3";

#[derive(QueryableByName)]
struct PeriodRow {
    #[diesel(sql_type = Timestamptz)]
    period_start: OffsetDateTime,
}

/// Up to `limit` period starts before `before`, newest first.
pub(super) async fn report_periods(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    before: Option<OffsetDateTime>,
    limit: u32,
) -> Result<Vec<OffsetDateTime>, StoreError> {
    let rows: Vec<PeriodRow> = sql_query(PERIODS)
        .bind::<SqlUuid, _>(uuid_of(operator))
        .bind::<Timestamptz, _>(before.unwrap_or(NEVER))
        .bind::<Integer, _>(i32::try_from(limit).unwrap_or(i32::MAX))
        .load(conn)
        .await
        .map_err(from_diesel)?;
    Ok(rows.into_iter().map(|row| row.period_start).collect())
}
