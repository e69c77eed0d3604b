//! `GET /flight/overview`: what an operator's dashboard shows first. Whether the product
//! is enabled and (in production) authorized, the terms in force, the money of the operator's tickets over a window
//! (the current settlement period unless asked otherwise) and the live flight, which
//! like every flight shows its crash point only once crashed.

use opinion_core::OperatorId;
use opinion_flight::{
    AuthorizationRequirement, AuthorizationStatus, ProductionAuthorization, SettlementPeriod, authorization_at,
};
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
    /// The production authorization now.
    pub production_authorization: AuthorizationSummary,
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

/// The operator's production authorization as the operator reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizationSummary {
    /// Whether this environment needs one (production only).
    pub required: bool,
    /// Whether flight may go ahead now (always outside production).
    pub authorized: bool,
    /// In production, the authorization in force, or else the latest one (revoked or
    /// expired); `None` outside production or when none was ever recorded.
    pub latest: Option<ProductionAuthorization>,
}

impl AuthorizationSummary {
    fn of(requirement: AuthorizationRequirement, records: &[ProductionAuthorization], now: OffsetDateTime) -> Self {
        let status = authorization_at(requirement, records, now);
        let latest = match status {
            AuthorizationStatus::NotRequired => None,
            AuthorizationStatus::Authorized(record) => Some(record.clone()),
            AuthorizationStatus::Missing(latest) => latest.cloned(),
        };
        Self {
            required: requirement == AuthorizationRequirement::Required,
            authorized: status.allows(),
            latest,
        }
    }
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
        let production_authorization = match self.production_authorization {
            AuthorizationRequirement::Required => AuthorizationSummary::of(
                self.production_authorization,
                &store.production_authorizations(operator).await?,
                now,
            ),
            AuthorizationRequirement::NotRequired => AuthorizationSummary::of(self.production_authorization, &[], now),
        };
        Ok(Overview {
            enablement: store.enablement(operator).await?,
            production_authorization,
            terms: terms_in_force(store.terms_versions(operator).await?, now),
            window,
            totals: store.ticket_totals(operator, &in_window).await?,
            live: store.latest_flight().await?.map(FlightView::of),
            generated_at: now,
        })
    }
}
