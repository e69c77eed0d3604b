//! The wallet worker's reads and claims.
//! Claims take the due rows `FOR UPDATE SKIP LOCKED` and mark them `sent` in the same
//! transaction, so concurrent workers get disjoint operations and an operation is never
//! sent by two of them. These are the platform's background queries: the first names
//! no operator because it finds which operators have work; the others filter by one.
//! Each reads Opinion's operations only: the flight product's are swept by its own
//! worker, which knows their tickets.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{Array, Text, Timestamptz, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{WalletOperationRecord, WalletOperationStep};
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_wallet::{OperationState, WalletFlow};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::wallet_operations;
use crate::opinion::flows::OPINION_FLOWS;
use crate::opinion::trading::apply::append_step;
use crate::opinion::trading::rows::WalletOperationRow;

/// The flows the worker sends (primaries of trades are sent by the order itself).
const WORKER_FLOWS: [&str; 2] = [WalletFlow::Redemption.as_str(), WalletFlow::BuyCompensation.as_str()];

/// Operators with worker-sent operations due, or with Opinion operations whose answer is
/// lost: sent longer ago than their operator's wallet timeout (none without an adapter)
/// plus the grace, as `stale_sent_operations` finds them. Operations in flight are no
/// work, so a busy operator costs the worker nothing until one is overdue. The stored
/// states are bound from the domain's names; a `sql_query` is planned with its values at
/// every pass, so the partial indexes on the state still serve it.
const OPERATORS_WITH_WORK: &str = "\
SELECT DISTINCT o.operator_id FROM wallet_operations o \
WHERE (o.state = $1 AND o.flow = ANY($2) AND o.next_attempt_at <= $3) \
   OR (o.state = $4 AND o.flow = ANY($5) AND o.sent_at < $6 - interval '1 millisecond' * \
       coalesce((SELECT a.timeout_ms FROM wallet_adapters a WHERE a.operator_id = o.operator_id), 0)) \
ORDER BY o.operator_id";

#[derive(QueryableByName)]
struct OperatorRow {
    #[diesel(sql_type = SqlUuid)]
    operator_id: Uuid,
}

pub(crate) async fn operators_with_wallet_work(
    store: &PgStore,
    now: OffsetDateTime,
    grace: Duration,
) -> Result<Vec<OperatorId>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<OperatorRow> = sql_query(OPERATORS_WITH_WORK)
        .bind::<Text, _>(OperationState::Prepared.as_str())
        .bind::<Array<Text>, _>(&WORKER_FLOWS[..])
        .bind::<Timestamptz, _>(now)
        .bind::<Text, _>(OperationState::Sent.as_str())
        .bind::<Array<Text>, _>(&OPINION_FLOWS[..])
        .bind::<Timestamptz, _>(now - grace)
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    Ok(rows.into_iter().map(|row| id_of(row.operator_id)).collect())
}

pub(crate) async fn claim_due_operations(
    store: &PgStore,
    operator: OperatorId,
    now: OffsetDateTime,
    limit: u16,
) -> Result<Vec<WalletOperationRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let claimed = conn
        .transaction::<_, DieselError, _>(async |conn| {
            let keys: Vec<(Uuid, Uuid)> = wallet_operations::table
                .filter(wallet_operations::operator_id.eq(uuid_of(operator)))
                .filter(wallet_operations::state.eq(OperationState::Prepared.as_str()))
                .filter(wallet_operations::flow.eq_any(WORKER_FLOWS))
                .filter(wallet_operations::next_attempt_at.le(now))
                .order((wallet_operations::next_attempt_at, wallet_operations::id))
                .limit(i64::from(limit))
                .select((wallet_operations::operator_id, wallet_operations::id))
                .for_update()
                .skip_locked()
                .load(conn)
                .await?;
            let mut claimed = Vec::with_capacity(keys.len());
            for key in keys {
                claimed.push(mark_sent(conn, key, now).await?);
            }
            Ok(claimed)
        })
        .await
        .map_err(from_diesel)?;
    claimed.into_iter().collect()
}

/// Moves a locked `prepared` row to `sent` and logs the step; the record is read back
/// through the domain's parsing (a corrupt row is reported, after the commit). The flight
/// product's claims share it.
pub(crate) async fn mark_sent(
    conn: &mut AsyncPgConnection,
    (operator_id, id): (Uuid, Uuid),
    now: OffsetDateTime,
) -> QueryResult<Result<WalletOperationRecord, StoreError>> {
    let updated: WalletOperationRow = diesel::update(wallet_operations::table.find((operator_id, id)))
        .set((
            wallet_operations::state.eq(OperationState::Sent.as_str()),
            wallet_operations::attempts.eq(wallet_operations::attempts + 1),
            wallet_operations::sent_at.eq(now),
            wallet_operations::next_attempt_at.eq(None::<OffsetDateTime>),
        ))
        .returning(WalletOperationRow::as_returning())
        .get_result(conn)
        .await?;
    let record = match updated.into_record() {
        Ok(record) => record,
        Err(error) => return Ok(Err(error)),
    };
    // A send is not an answer: the step carries no status (the row keeps the last answer's).
    let step = WalletOperationStep {
        state: record.state,
        http_status: None,
        detail: None,
        at: now,
    };
    append_step(conn, record.operator_id, id, &step).await?;
    Ok(Ok(record))
}

pub(crate) async fn stale_sent_operations(
    store: &PgStore,
    operator: OperatorId,
    sent_before: OffsetDateTime,
    limit: u16,
) -> Result<Vec<WalletOperationRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<WalletOperationRow> = wallet_operations::table
        .filter(wallet_operations::operator_id.eq(uuid_of(operator)))
        .filter(wallet_operations::state.eq(OperationState::Sent.as_str()))
        .filter(wallet_operations::flow.eq_any(OPINION_FLOWS))
        .filter(wallet_operations::sent_at.lt(sent_before))
        .order((wallet_operations::sent_at, wallet_operations::id))
        .limit(i64::from(limit))
        .select(WalletOperationRow::as_select())
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(WalletOperationRow::into_record).collect()
}
