//! The operator's flight wallet operations: the rows of the shared `wallet_operations`
//! table whose flow is one of the flight product's, never Opinion's.

use diesel::prelude::*;
use diesel_async::AsyncPgConnection;
use opinion_app::flight::reads::ports::FlightOperationFilter;
use opinion_app::model::WalletOperationRecord;
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, WalletOperationKind};
use opinion_wallet::WalletFlow;

use crate::db::ids::uuid_of;
use crate::db::schema::wallet_operations;
use crate::opinion::reads::wallet_operations::{SharedOperationFilter, operations_page};

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
    let shared = SharedOperationFilter {
        external_user_id: filter.external_user_id.as_deref(),
        flow: filter.flow,
        state: filter.state,
        created: &filter.created,
    };
    let (flight, ticket) = (filter.flight_id, filter.ticket_id);
    operations_page(conn, operator, &FLIGHT_FLOWS, &shared, page, |mut query| {
        if let Some(flight) = flight {
            query = query.filter(wallet_operations::flight_id.eq(uuid_of(flight)));
        }
        if let Some(ticket) = ticket {
            query = query.filter(wallet_operations::ticket_id.eq(uuid_of(ticket)));
        }
        query
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn they_are_the_domains_flight_flows() {
        assert_eq!(FLIGHT_FLOWS, WalletFlow::FLIGHT.map(WalletFlow::as_str));
    }
}
