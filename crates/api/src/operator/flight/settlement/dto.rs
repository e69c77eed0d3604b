//! The bodies of settlement reports. Money is an integer string of whole rupiah (`share`
//! is signed; `amountDue` is its size, with `direction` saying who pays), dates plain
//! `YYYY-MM-DD`, instants RFC 3339 UTC.

use opinion_app::flight::office::{PERIOD, SettlementReport};
use opinion_flight::FinalizationBlocker;
use opinion_statement::SignedDocument;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::shared::page_query::page_of;

/// The currency of every flight amount.
const IDR: &str = "IDR";

/// Why an open report cannot be finalized now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlockerBody {
    /// `period_open`, `tickets_unsettled` or `tickets_in_review`.
    pub code: String,
    /// How many tickets hold it (`tickets_unsettled`, `tickets_in_review`).
    pub count: Option<u64>,
    /// When the period ends (`period_open`).
    #[serde(with = "time::serde::rfc3339::option")]
    pub ends_at: Option<OffsetDateTime>,
}

impl From<&FinalizationBlocker> for BlockerBody {
    fn from(blocker: &FinalizationBlocker) -> Self {
        let (count, ends_at) = match blocker {
            FinalizationBlocker::PeriodOpen { ends_at } => (None, Some(*ends_at)),
            FinalizationBlocker::TicketsUnsettled { count } | FinalizationBlocker::TicketsInReview { count } => {
                (Some(*count), None)
            }
        };
        Self {
            code: blocker.code().to_owned(),
            count,
            ends_at,
        }
    }
}

/// One settlement report as listed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettlementReportBody {
    /// `fsr_…` once finalized; null while open (address it by `period`).
    pub id: Option<String>,
    /// The period's label, `YYYY-MM` (a calendar month UTC): addresses the report
    /// whether open or finalized.
    #[schema(example = "2026-10")]
    pub period: String,
    /// `open` (computed from the tickets now) or `finalized` (signed, never changes).
    pub status: String,
    /// The period's start (included).
    #[serde(with = "time::serde::rfc3339")]
    pub period_start: OffsetDateTime,
    /// The period's end (excluded).
    #[serde(with = "time::serde::rfc3339")]
    pub period_end: OffsetDateTime,
    /// Settled tickets (lines) so far.
    pub ticket_count: u64,
    /// Their stakes.
    pub stakes: String,
    /// Their payouts.
    pub payouts: String,
    /// Their refunds.
    pub refunds: String,
    /// `stakes − payouts − refunds`, signed.
    pub ggr: String,
    /// The platform's share: each line's `ggr × shareBps / 10 000` truncated toward zero,
    /// summed; signed.
    pub share: String,
    /// The share's size.
    pub amount_due: String,
    /// `operator_to_platform`, `platform_to_operator` or `none`.
    pub direction: String,
    /// Always `IDR`.
    pub currency: &'static str,
    /// When the amount is due; null while no terms cover the period.
    pub due_date: Option<String>,
    /// Why an open report cannot be finalized now (empty once finalized).
    pub blockers: Vec<BlockerBody>,
    /// The SHA-256 of the signed statement's canonical bytes; null while open.
    pub statement_hash: Option<String>,
    /// When it was finalized; null while open.
    #[serde(with = "time::serde::rfc3339::option")]
    pub finalized_at: Option<OffsetDateTime>,
}

impl From<&SettlementReport> for SettlementReportBody {
    fn from(report: &SettlementReport) -> Self {
        let totals = &report.totals;
        let (amount_due, direction) = totals.amount_due();
        let finalized = report.finalized.as_ref();
        Self {
            id: finalized.map(|f| f.id.to_string()),
            period: PERIOD.label(report.period_start),
            status: if finalized.is_some() { "finalized" } else { "open" }.to_owned(),
            period_start: report.period_start,
            period_end: report.period_end,
            ticket_count: totals.ticket_count,
            stakes: totals.stakes.to_string(),
            payouts: totals.payouts.to_string(),
            refunds: totals.refunds.to_string(),
            ggr: totals.ggr.to_string(),
            share: totals.share.to_string(),
            amount_due: amount_due.get().to_string(),
            direction: direction.as_str().to_owned(),
            currency: IDR,
            due_date: report.due_date.map(|date| date.to_string()),
            blockers: report.blockers.iter().map(BlockerBody::from).collect(),
            statement_hash: finalized.map(|f| f.statement.hash.to_string()),
            finalized_at: finalized.map(|f| f.finalized_at),
        }
    }
}

/// One settlement report with its signed statement.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettlementReportDetailBody {
    /// The report.
    #[serde(flatten)]
    pub report: SettlementReportBody,
    /// The signed statement, `{"document": {...}, "signature": {"algorithm": "Ed25519",
    /// "keyId", "value"}}`; null while open.
    #[schema(value_type = Option<Object>)]
    pub statement: Option<SignedDocument>,
}

impl From<&SettlementReport> for SettlementReportDetailBody {
    fn from(report: &SettlementReport) -> Self {
        Self {
            report: SettlementReportBody::from(report),
            statement: report.finalized.as_ref().map(|f| f.statement.signed.clone()),
        }
    }
}

/// The report list's query: its page.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReportsParams {
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

page_of!(ReportsParams);

/// Which part of a report's export to serve.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportPart {
    /// The signed statement alone (`application/json`).
    Statement,
    /// The ticket-lines CSV alone (`text/csv`), the bytes `linesSha256` hashes.
    Lines,
}

/// The export's query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportParams {
    /// `statement` or `lines` for one part; omitted, both in one JSON document
    /// `{"statement": {...}, "lines": "<the CSV>"}`.
    #[param(inline)]
    pub part: Option<ExportPart>,
}
