//! The operator's flight wallet operations: the rows of the shared `wallet_operations`
//! table whose flow is one of the flight product's, never Opinion's.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::reads::ports::FlightOperationFilter;
use opinion_app::model::WalletOperationRecord;
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, WalletOperationKind};
use opinion_wallet::WalletFlow;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::schema::wallet_operations;
use crate::opinion::reads::page::overfetch;
use crate::opinion::trading::rows::WalletOperationRow;

/// The stored names of the flight product's flows.
pub(super) const FLIGHT_FLOWS: [&str; 3] = [
    WalletFlow::FlightTicketPurchase.as_str(),
    WalletFlow::FlightTicketPayout.as_str(),
    WalletFlow::FlightTicketRefund.as_str(),
];

/// One page of the operator's flight operations, newest first.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &FlightOperationFilter,
    page: PageRequest<WalletOperationKind>,
) -> Result<Page<WalletOperationRecord, WalletOperationKind>, StoreError> {
    let mut query = wallet_operations::table
        .filter(wallet_operations::operator_id.eq(uuid_of(operator)))
        .filter(wallet_operations::flow.eq_any(FLIGHT_FLOWS))
        .select(WalletOperationRow::as_select())
        .order(wallet_operations::id.desc())
        .limit(overfetch(&page))
        .into_boxed();
    if let Some(external) = &filter.external_user_id {
        query = query.filter(wallet_operations::external_user_id.eq(external.clone()));
    }
    if let Some(flight) = filter.flight_id {
        query = query.filter(wallet_operations::flight_id.eq(uuid_of(flight)));
    }
    if let Some(ticket) = filter.ticket_id {
        query = query.filter(wallet_operations::ticket_id.eq(uuid_of(ticket)));
    }
    if let Some(flow) = filter.flow {
        query = query.filter(wallet_operations::flow.eq(flow.as_str()));
    }
    if let Some(state) = filter.state {
        query = query.filter(wallet_operations::state.eq(state.as_str()));
    }
    if let Some(from) = filter.created.from {
        query = query.filter(wallet_operations::created_at.ge(from));
    }
    if let Some(to) = filter.created.to {
        query = query.filter(wallet_operations::created_at.lt(to));
    }
    if let Some(after) = page.after {
        query = query.filter(wallet_operations::id.lt(uuid_of(after.position())));
    }
    let rows = query.load(conn).await.map_err(from_diesel)?;
    let operations = rows
        .into_iter()
        .map(WalletOperationRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(
        operations,
        page.limit,
        |operation: &WalletOperationRecord| operation.id,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn they_are_the_domains_flight_flows() {
        assert_eq!(FLIGHT_FLOWS, WalletFlow::FLIGHT.map(WalletFlow::as_str));
    }
}
