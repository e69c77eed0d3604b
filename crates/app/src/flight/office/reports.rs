//! Reading an operator's settlement reports: the finalized ones as stored, with their
//! signed statements, and the open ones computed from the tickets on every read (never
//! stored, so they can never disagree with the tickets). Reports are listed newest period
//! first; a report is addressed by its `fsr_…` id once finalized, or at any time by its
//! period's label (`2026-10`). The ticket lines of a finalized report are handed out in
//! chunks (`LinesExport`), in the order and with the bytes its statement hashed. A
//! finalized report is read with its balance: its corrections and payments so far.

use std::sync::Arc;

use opinion_core::{Cursor, OperatorId, Page, PageRequest, SettlementReportId, SettlementReportKind};
use opinion_flight::{
    FinalizationBlocker, PeriodState, ReportTotals, SettlementBalance, SettlementPeriod, due_date,
    finalization_blockers,
};
use time::{Date, Duration, OffsetDateTime};

use crate::error::{AppError, ProblemCode};
use crate::flight::office::FlightOffice;
use crate::flight::office::LINES_CHUNK;
use crate::flight::office::correct::balance_of;
use crate::flight::office::model::{FinalizedReport, LineCursor, ReportLineRecord};
use crate::flight::office::ports::OfficeStore;
use crate::flight::terms::terms_in_force;

/// Settlement periods are calendar months, UTC.
pub const PERIOD: SettlementPeriod = SettlementPeriod::CalendarMonth;

/// How a report is named in a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportAddress {
    /// A finalized report's id.
    Id(SettlementReportId),
    /// The report of the period starting at this instant, open or finalized.
    Period(OffsetDateTime),
}

/// One settlement report as an operator reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettlementReport {
    /// The period's start (included).
    pub period_start: OffsetDateTime,
    /// The period's end (excluded).
    pub period_end: OffsetDateTime,
    /// The sums of its lines (so far, while open).
    pub totals: ReportTotals,
    /// When the amount is due (`None` while the operator has no terms for the period).
    pub due_date: Option<Date>,
    /// Why an open report cannot be finalized now; empty once finalized.
    pub blockers: Vec<FinalizationBlocker>,
    /// The stored report with its signed statement, once finalized.
    pub finalized: Option<FinalizedReport>,
    /// Once finalized: its share with its corrections and payments so far.
    pub balance: Option<SettlementBalance>,
}

/// The keyset position of a period in the list: an id whose time part is the period's
/// start and whose random part is zero, so the list's cursor names a period.
pub fn period_position(start: OffsetDateTime) -> SettlementReportId {
    let millis = u128::try_from(start.unix_timestamp_nanos() / 1_000_000).unwrap_or_default();
    SettlementReportId::from_u128(millis << 80)
}

/// The period start a list cursor names.
fn period_of_position(cursor: Cursor<SettlementReportKind>) -> OffsetDateTime {
    let millis = i128::try_from(cursor.position().as_u128() >> 80).unwrap_or_default();
    OffsetDateTime::from_unix_timestamp_nanos(millis * 1_000_000).unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

impl FlightOffice {
    /// One page of the operator's reports, newest period first: every finalized report,
    /// and an open one for every other period in which the operator sold a ticket.
    pub async fn list_reports(
        &self,
        operator: OperatorId,
        page: PageRequest<SettlementReportKind>,
    ) -> Result<Page<SettlementReport, SettlementReportKind>, AppError> {
        let before = page.after.map(period_of_position);
        let overfetch = u32::from(page.limit.get()) + 1;
        let starts = self.ports.store.report_periods(operator, before, overfetch).await?;
        let (Some(newest), Some(oldest)) = (starts.first(), starts.last()) else {
            return Ok(Page {
                items: Vec::new(),
                next: None,
            });
        };
        let mut finalized = self.ports.store.finalized_reports(operator, *oldest, *newest).await?;
        let mut reports = Vec::with_capacity(starts.len());
        for start in starts {
            let report = match finalized.iter().position(|report| report.period_start == start) {
                Some(index) => self.of_finalized(finalized.swap_remove(index)).await?,
                None => self.open_report(operator, start).await?,
            };
            reports.push(report);
        }
        Ok(Page::from_overfetch(reports, page.limit, |report| {
            period_position(report.period_start)
        }))
    }

    /// One of the operator's reports; another operator's is not found, and so is a
    /// period that has not started.
    pub async fn report(&self, operator: OperatorId, address: ReportAddress) -> Result<SettlementReport, AppError> {
        match address {
            ReportAddress::Id(id) => self.of_finalized(self.finalized_report(operator, id).await?).await,
            ReportAddress::Period(start) => {
                if start > self.ports.clock.now() {
                    return Err(AppError::NotFound("settlement report"));
                }
                match self.ports.store.report_of_period(operator, start).await? {
                    Some(report) => self.of_finalized(report).await,
                    None => self.open_report(operator, start).await,
                }
            }
        }
    }

    /// A finalized report as read, with its balance now.
    async fn of_finalized(&self, report: FinalizedReport) -> Result<SettlementReport, AppError> {
        let moves = self.ports.store.report_balance(report.operator_id, report.id).await?;
        Ok(SettlementReport {
            period_start: report.period_start,
            period_end: report.period_end,
            totals: report.totals,
            due_date: Some(report.due_date),
            blockers: Vec::new(),
            balance: Some(balance_of(&report, &moves)),
            finalized: Some(report),
        })
    }

    /// A finalized report of the operator, by id.
    pub async fn finalized_report(
        &self,
        operator: OperatorId,
        id: SettlementReportId,
    ) -> Result<FinalizedReport, AppError> {
        self.ports
            .store
            .find_report(operator, id)
            .await?
            .ok_or(AppError::NotFound("settlement report"))
    }

    /// What the export of a report serves: the finalized report and its lines, chunk by
    /// chunk; an open report has no statement to export yet.
    pub async fn export_report(
        &self,
        operator: OperatorId,
        address: ReportAddress,
    ) -> Result<(FinalizedReport, LinesExport), AppError> {
        let report = self.report(operator, address).await?;
        let Some(finalized) = report.finalized else {
            return Err(AppError::Conflict {
                code: ProblemCode::ReportNotFinalized,
                detail: format!(
                    "the report of {} is open: only a finalized report has a signed statement to export",
                    PERIOD.label(report.period_start)
                ),
            });
        };
        let lines = LinesExport {
            store: self.ports.store.clone(),
            operator,
            period: (finalized.period_start, finalized.period_end),
            after: None,
            done: false,
        };
        Ok((finalized, lines))
    }

    /// The open report of the period starting at `start`, computed from its tickets now.
    pub(crate) async fn open_report(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
    ) -> Result<SettlementReport, AppError> {
        let (start, end) = PERIOD.period_containing(start);
        let counts = self.ports.store.period_ticket_counts(operator, start, end).await?;
        let blockers = finalization_blockers(
            PeriodState {
                ends_at: end,
                unsettled: counts.unsettled,
                in_review: counts.in_review,
            },
            self.ports.clock.now(),
        );
        let (totals, _) = self.walk_lines(operator, start, end).await?;
        let terms = terms_in_force(
            self.ports.flight.terms_versions(operator).await?,
            end - Duration::microseconds(1),
        );
        Ok(SettlementReport {
            period_start: start,
            period_end: end,
            totals,
            due_date: terms.map(|terms| due_date(end, terms.version.terms.payment_due_days())),
            blockers,
            finalized: None,
            balance: None,
        })
    }
}

/// The ticket lines of a finalized report, handed out chunk by chunk in purchase order:
/// the rows whose CSV its statement's `linesSha256` hashes.
pub struct LinesExport {
    store: Arc<dyn OfficeStore>,
    operator: OperatorId,
    period: (OffsetDateTime, OffsetDateTime),
    after: Option<LineCursor>,
    done: bool,
}

impl LinesExport {
    /// The next chunk of lines; `None` once every line was handed out.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<ReportLineRecord>>, AppError> {
        if self.done {
            return Ok(None);
        }
        let chunk = self
            .store
            .report_lines(self.operator, self.period.0, self.period.1, self.after, LINES_CHUNK)
            .await?;
        match chunk.last() {
            Some(last) if chunk.len() == LINES_CHUNK as usize => self.after = Some((last.purchased_at, last.ticket_id)),
            _ => self.done = true,
        }
        Ok(Some(chunk))
    }
}
