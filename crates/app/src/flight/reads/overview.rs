//! `GET /flight/overview`: what an operator's dashboard shows first. Whether the product
//! is enabled, the terms in force, the money of the operator's tickets over a window
//! (the current settlement period unless asked otherwise) and the live flight, which
//! like every flight shows its crash point only once crashed.

use opinion_core::OperatorId;
use opinion_flight::SettlementPeriod;
use time::OffsetDateTime;

use crate::error::AppError;
use crate::flight::model::{Enablement, TermsRecord};
use crate::flight::reads::ports::{TicketFilter, TicketTotals};
use crate::flight::reads::{FlightReads, FlightView};
use crate::flight::terms::terms_in_force;
use crate::opinion::reads::filters::time_range;
use crate::opinion::reads::ports::TimeRange;

/// The overview's window as the client wrote it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OverviewQuery {
    /// `from`: tickets bought at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: tickets bought before (RFC 3339).
    pub to: Option<String>,
}

/// What the overview shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overview {
    /// Whether the operator's players may buy tickets, and since when (`None` until
    /// platform staff decided: the product is off).
    pub enablement: Option<Enablement>,
    /// The terms in force now.
    pub terms: Option<TermsRecord>,
    /// The window the totals cover.
    pub window: TimeRange,
    /// The operator's tickets bought in the window.
    pub totals: TicketTotals,
    /// The newest flight.
    pub live: Option<FlightView>,
    /// When the overview was read.
    pub generated_at: OffsetDateTime,
}

impl OverviewQuery {
    /// The window asked for; without `from` and `to`, the settlement period running at `now`.
    fn window(&self, now: OffsetDateTime) -> Result<TimeRange, AppError> {
        if self.from.is_none() && self.to.is_none() {
            let (from, to) = SettlementPeriod::CalendarMonth.period_containing(now);
            return Ok(TimeRange {
                from: Some(from),
                to: Some(to),
            });
        }
        time_range(self.from.as_deref(), self.to.as_deref())
    }
}

impl FlightReads {
    /// The operator's flight overview.
    pub async fn overview(&self, operator: OperatorId, query: &OverviewQuery) -> Result<Overview, AppError> {
        let now = self.ports.clock.now();
        let window = query.window(now)?;
        let store = &self.ports.store;
        let in_window = TicketFilter {
            purchased: window,
            ..TicketFilter::default()
        };
        Ok(Overview {
            enablement: store.enablement(operator).await?,
            terms: terms_in_force(store.terms_versions(operator).await?, now),
            window,
            totals: store.ticket_totals(operator, &in_window).await?,
            live: store.latest_flight().await?.map(FlightView::of),
            generated_at: now,
        })
    }
}
