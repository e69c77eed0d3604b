//! `GET /flight/flights`, one flight and the flights' export, and the player's list of
//! crashed flights. Flights are platform-wide: every operator (and every player) reads
//! the same ones, each shown through `FlightView` (nothing secret before the crash); a
//! flight's detail adds the operator's own tickets' totals on it.

use std::sync::Arc;

use opinion_core::{FlightId, FlightKind, OperatorId, Page, PageRequest};
use opinion_flight::FlightPhase;

use crate::error::AppError;
use crate::flight::reads::export::Export;
use crate::flight::reads::ports::{FlightFilter, FlightReadStore, TicketFilter, TicketTotals};
use crate::flight::reads::{FlightReads, FlightView};
use crate::opinion::reads::filters::time_range;

/// The flights list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlightQuery {
    /// `from`: boarded at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: boarded before (RFC 3339).
    pub to: Option<String>,
}

impl FlightQuery {
    fn filter(&self) -> Result<FlightFilter, AppError> {
        Ok(FlightFilter {
            boarded: time_range(self.from.as_deref(), self.to.as_deref())?,
            phase: None,
        })
    }
}

/// One flight and what the operator's players staked on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightDetail {
    pub flight: FlightView,
    /// The operator's tickets on it.
    pub totals: TicketTotals,
}

impl FlightReads {
    /// One page of flights, newest first.
    pub async fn list_flights(
        &self,
        query: &FlightQuery,
        page: PageRequest<FlightKind>,
    ) -> Result<Page<FlightView, FlightKind>, AppError> {
        let filter = query.filter()?;
        Ok(flights_page(self.ports.store.as_ref(), &filter, page).await?)
    }

    /// One page of the flights that have crashed, newest first: the fairness data a
    /// player checks (each flight's seed, crash point, commitment and salt). Shown through
    /// `FlightView` like every flight read, so nothing secret shows even if a row in
    /// another phase came back.
    pub async fn crashed_flights(
        &self,
        page: PageRequest<FlightKind>,
    ) -> Result<Page<FlightView, FlightKind>, AppError> {
        let filter = FlightFilter {
            phase: Some(FlightPhase::Crashed),
            ..FlightFilter::default()
        };
        Ok(flights_page(self.ports.store.as_ref(), &filter, page).await?)
    }

    /// One flight with the operator's totals on it; 404 if there is no such flight.
    pub async fn flight(&self, operator: OperatorId, id: FlightId) -> Result<FlightDetail, AppError> {
        let flight = self
            .ports
            .store
            .find_flight(id)
            .await?
            .ok_or(AppError::NotFound("flight"))?;
        let own = TicketFilter {
            flight_id: Some(id),
            ..TicketFilter::default()
        };
        let totals = self.ports.store.ticket_totals(operator, &own).await?;
        Ok(FlightDetail {
            flight: FlightView::of(flight),
            totals,
        })
    }

    /// Every flight matching the query, newest first, chunk by chunk.
    pub fn export_flights(&self, query: &FlightQuery) -> Result<Export<FlightView, FlightKind>, AppError> {
        let filter = query.filter()?;
        let store = self.ports.store.clone();
        Ok(Export::new(Box::new(move |page| {
            let store: Arc<dyn FlightReadStore> = store.clone();
            Box::pin(async move { Ok(flights_page(store.as_ref(), &filter, page).await?) })
        })))
    }
}

async fn flights_page(
    store: &dyn FlightReadStore,
    filter: &FlightFilter,
    page: PageRequest<FlightKind>,
) -> Result<Page<FlightView, FlightKind>, crate::ports::StoreError> {
    Ok(store.list_flights(filter, page).await?.map(FlightView::of))
}
