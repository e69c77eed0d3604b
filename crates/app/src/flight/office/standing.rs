//! What the operator's overview shows of settlement: the running period's report so far
//! (its share computed line by line with each ticket's frozen share, exactly as
//! finalization will compute it) and what remains due on each finalized report after its
//! corrections and payments. Reading it walks the running period's lines, like the open
//! report's read.

use opinion_core::{OperatorId, SettlementReportId};
use opinion_flight::{PaymentDirection, Rupiah};
use time::{Date, OffsetDateTime};

use crate::error::AppError;
use crate::flight::office::correct::balance_of;
use crate::flight::office::{FlightOffice, PERIOD, SettlementReport};

/// The operator's settlement as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettlementStanding {
    /// The running period's report, open: its totals (share included) so far.
    pub current: SettlementReport,
    /// Every finalized report on which something remains due, oldest period first.
    pub outstanding: Vec<OutstandingReport>,
}

/// A finalized report not settled yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutstandingReport {
    /// The report.
    pub report_id: SettlementReportId,
    /// Its period's start.
    pub period_start: OffsetDateTime,
    /// When its amount was due.
    pub due_date: Date,
    /// What remains due after its corrections and payments.
    pub remaining_due: Rupiah,
    /// Who pays it (never `None`).
    pub direction: PaymentDirection,
}

impl FlightOffice {
    /// The running period's report so far and what remains due on finalized reports.
    pub async fn settlement_standing(&self, operator: OperatorId) -> Result<SettlementStanding, AppError> {
        let now = self.ports.clock.now();
        let (start, _) = PERIOD.period_containing(now);
        let current = self.open_report(operator, start).await?;
        let finalized = self
            .ports
            .store
            .finalized_reports(operator, OffsetDateTime::UNIX_EPOCH, start)
            .await?;
        let mut outstanding = Vec::new();
        for report in finalized {
            let moves = self.ports.store.report_balance(operator, report.id).await?;
            let (remaining_due, direction) = balance_of(&report, &moves).remaining_due();
            if direction != PaymentDirection::None {
                outstanding.push(OutstandingReport {
                    report_id: report.id,
                    period_start: report.period_start,
                    due_date: report.due_date,
                    remaining_due,
                    direction,
                });
            }
        }
        outstanding.sort_by_key(|report| report.period_start);
        Ok(SettlementStanding { current, outstanding })
    }
}
