//! `GET /flight/tickets`, one ticket and the tickets' export: the operator's tickets only,
//! each with its frozen share (`shareBps`), stake, auto cash-out, status, cash-out,
//! payout and refund reason. Another operator's ticket is not found.

use std::sync::Arc;

use opinion_core::{OperatorId, Page, PageRequest, TicketId, TicketKind};
use opinion_flight::TicketStatus;

use crate::error::AppError;
use crate::flight::model::TicketRecord;
use crate::flight::reads::export::Export;
use crate::flight::reads::ports::{FlightReadStore, TicketFilter};
use crate::flight::reads::{FlightReads, FlightView};
use crate::opinion::reads::filters::{one_of, optional_external_user_id, optional_id, time_range};

/// The tickets list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TicketQuery {
    /// `flightId`: only this flight's.
    pub flight_id: Option<String>,
    /// `externalUserId`: only this player's.
    pub external_user_id: Option<String>,
    /// `status`: one of the ticket statuses.
    pub status: Option<String>,
    /// `from`: bought at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: bought before (RFC 3339).
    pub to: Option<String>,
}

impl TicketQuery {
    pub(crate) fn filter(&self) -> Result<TicketFilter, AppError> {
        Ok(TicketFilter {
            flight_id: optional_id("flightId", self.flight_id.as_deref())?,
            external_user_id: optional_external_user_id(self.external_user_id.as_deref())?,
            status: one_of(
                "status",
                self.status.as_deref(),
                &TicketStatus::ALL,
                TicketStatus::as_str,
            )?,
            purchased: time_range(self.from.as_deref(), self.to.as_deref())?,
        })
    }
}

/// One ticket and the flight it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketDetail {
    pub ticket: TicketRecord,
    /// Its flight, as anyone may see it.
    pub flight: FlightView,
}

impl FlightReads {
    /// One page of the operator's tickets, newest first.
    pub async fn list_tickets(
        &self,
        operator: OperatorId,
        query: &TicketQuery,
        page: PageRequest<TicketKind>,
    ) -> Result<Page<TicketRecord, TicketKind>, AppError> {
        let filter = query.filter()?;
        Ok(self.ports.store.list_tickets(operator, &filter, page).await?)
    }

    /// One ticket of the operator with its flight; 404 if the operator has no such ticket.
    pub async fn ticket(&self, operator: OperatorId, id: TicketId) -> Result<TicketDetail, AppError> {
        let ticket = self
            .ports
            .store
            .find_ticket(operator, id)
            .await?
            .ok_or(AppError::NotFound("ticket"))?;
        let flight = self
            .ports
            .store
            .find_flight(ticket.flight_id)
            .await?
            .ok_or_else(|| AppError::StoreUnavailable(format!("the flight of {} is missing", ticket.id)))?;
        Ok(TicketDetail {
            ticket,
            flight: FlightView::of(flight),
        })
    }

    /// Every ticket of the operator matching the query, newest first, chunk by chunk.
    pub fn export_tickets(
        &self,
        operator: OperatorId,
        query: &TicketQuery,
    ) -> Result<Export<TicketRecord, TicketKind>, AppError> {
        let filter = query.filter()?;
        let store = self.ports.store.clone();
        Ok(Export::new(Box::new(move |page| {
            let store: Arc<dyn FlightReadStore> = store.clone();
            let filter = filter.clone();
            Box::pin(async move { Ok(store.list_tickets(operator, &filter, page).await?) })
        })))
    }
}
