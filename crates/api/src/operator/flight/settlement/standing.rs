//! The overview's `settlement`: the running period's figures so far, share included, and
//! what remains due on finalized reports. Shown only to a caller holding
//! `flight_settlements:read`, the scope of the settlement reports it summarises.

use opinion_app::flight::office::{OutstandingReport, SettlementStanding};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::operator::flight::settlement::dto::IDR;

/// The operator's settlement as it stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettlementStandingBody {
    /// The running period (`YYYY-MM`, UTC), still open.
    pub current_period: String,
    /// Its tickets with money so far.
    pub ticket_count: u64,
    /// Their stakes, whole rupiah.
    pub stakes: String,
    /// Their payouts.
    pub payouts: String,
    /// Their refunds.
    pub refunds: String,
    /// Gross gaming revenue (signed).
    pub ggr: String,
    /// The platform's share so far (signed), computed ticket by ticket with each ticket's
    /// frozen share, as the period's report will be.
    pub share: String,
    /// Always `IDR`.
    pub currency: &'static str,
    /// Finalized reports on which something remains due, oldest first.
    pub outstanding: Vec<OutstandingBody>,
}

/// A finalized report not settled yet.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutstandingBody {
    /// `fsr_…`.
    pub report_id: String,
    /// `YYYY-MM`.
    pub period: String,
    /// When it was due, `YYYY-MM-DD`.
    pub due_date: String,
    /// What remains due after its corrections and payments.
    pub remaining_due: String,
    /// `operator_to_platform` or `platform_to_operator`.
    pub remaining_direction: &'static str,
}

fn period(start: OffsetDateTime) -> String {
    opinion_app::flight::office::PERIOD.label(start)
}

impl From<SettlementStanding> for SettlementStandingBody {
    fn from(standing: SettlementStanding) -> Self {
        let totals = &standing.current.totals;
        Self {
            current_period: period(standing.current.period_start),
            ticket_count: totals.ticket_count,
            stakes: totals.stakes.to_string(),
            payouts: totals.payouts.to_string(),
            refunds: totals.refunds.to_string(),
            ggr: totals.ggr.to_string(),
            share: totals.share.to_string(),
            currency: IDR,
            outstanding: standing.outstanding.into_iter().map(OutstandingBody::from).collect(),
        }
    }
}

impl From<OutstandingReport> for OutstandingBody {
    fn from(report: OutstandingReport) -> Self {
        Self {
            report_id: report.report_id.to_string(),
            period: period(report.period_start),
            due_date: report.due_date.to_string(),
            remaining_due: report.remaining_due.get().to_string(),
            remaining_direction: report.direction.as_str(),
        }
    }
}
