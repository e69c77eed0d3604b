//! The flight money worker's reads and claims over `wallet_operations`, restricted to the
//! flight product's flows (Opinion's worker never sees these, nor these Opinion's).
//! Claims take the due rows `FOR UPDATE SKIP LOCKED` and mark them `sent` in the same
//! transaction, as Opinion's redemption claims do, so concurrent workers get disjoint
//! operations. The first read names no operator: it finds which operators have work.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::model::WalletOperationRecord;
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_wallet::{OperationState, WalletFlow};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::wallet_operations;
use crate::opinion::settlement::wallet_worker::mark_sent;
use crate::opinion::trading::rows::WalletOperationRow;

/// The stored names of the flight product's flows.
const FLIGHT_FLOWS: [&str; 3] = [
    WalletFlow::FlightTicketPurchase.as_str(),
    WalletFlow::FlightTicketPayout.as_str(),
    WalletFlow::FlightTicketRefund.as_str(),
];

/// The flows the worker sends (a purchase is sent by the purchase itself).
const WORKER_FLOWS: [&str; 2] = [
    WalletFlow::FlightTicketPayout.as_str(),
    WalletFlow::FlightTicketRefund.as_str(),
];

pub(crate) async fn operators_with_flight_wallet_work(
    store: &PgStore,
    now: OffsetDateTime,
    lost_before: OffsetDateTime,
) -> Result<Vec<OperatorId>, StoreError> {
    let mut conn = store.conn().await?;
    let due = wallet_operations::state
        .eq(OperationState::Prepared.as_str())
        .and(wallet_operations::flow.eq_any(WORKER_FLOWS))
        .and(wallet_operations::next_attempt_at.le(now));
    let lost = wallet_operations::state
        .eq(OperationState::Sent.as_str())
        .and(wallet_operations::flow.eq_any(FLIGHT_FLOWS))
        .and(wallet_operations::sent_at.lt(lost_before));
    let ids: Vec<Uuid> = wallet_operations::table
        .filter(due.or(lost))
        .select(wallet_operations::operator_id)
        .distinct()
        .order(wallet_operations::operator_id)
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    Ok(ids.into_iter().map(id_of).collect())
}

pub(crate) async fn claim_due_flight_operations(
    store: &PgStore,
    operator: OperatorId,
    now: OffsetDateTime,
    limit: u32,
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

pub(crate) async fn stale_flight_operations(
    store: &PgStore,
    operator: OperatorId,
    before: OffsetDateTime,
    limit: u32,
) -> Result<Vec<WalletOperationRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<WalletOperationRow> = wallet_operations::table
        .filter(wallet_operations::operator_id.eq(uuid_of(operator)))
        .filter(wallet_operations::state.eq(OperationState::Sent.as_str()))
        .filter(wallet_operations::flow.eq_any(FLIGHT_FLOWS))
        .filter(wallet_operations::sent_at.lt(before))
        .order((wallet_operations::sent_at, wallet_operations::id))
        .limit(i64::from(limit))
        .select(WalletOperationRow::as_select())
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(WalletOperationRow::into_record).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn they_are_the_domains_flight_flows() {
        assert_eq!(FLIGHT_FLOWS, WalletFlow::FLIGHT.map(WalletFlow::as_str));
    }
}
