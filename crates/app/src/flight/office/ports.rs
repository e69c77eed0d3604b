//! What the flight back office needs from outside: the platform's statement keys (public
//! halves only; the secret seed never reaches the store), the period's tickets and the
//! finalized reports with the operator's chain of signed documents, corrections and
//! payments.

use async_trait::async_trait;
use opinion_core::{OperatorId, Page, PageRequest, SettlementPaymentKind, SettlementReportId, StatementCorrectionKind};
use time::OffsetDateTime;

use crate::flight::office::model::{
    BalanceMoves, ChainDocument, Correction, FinalizedReport, LineCursor, Payment, ReportLineRecord, StatementKeyRecord,
};
use crate::model::NewEvent;
use crate::ports::StoreError;

/// The platform's statement keys.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait StatementKeyStore: Send + Sync {
    /// Every key, oldest first (current and retired).
    async fn statement_keys(&self) -> Result<Vec<StatementKeyRecord>, StoreError>;
    /// Makes `key` the current key unless it is already known, retiring the current one
    /// at `key.created_at`, in one transaction; answers the stored record of the key
    /// (the one found when it was known already, current or retired).
    async fn register_statement_key(&self, key: &StatementKeyRecord) -> Result<StatementKeyRecord, StoreError>;
}

/// A period's tickets that keep its report from being finalized.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PeriodTicketCounts {
    /// Pending or active.
    pub unsettled: u64,
    /// In manual review.
    pub in_review: u64,
}

/// Settlement reports, their signed statements and the operator's chain of documents.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OfficeStore: Send + Sync {
    /// How many of the operator's tickets bought in `[start, end)` are not settled.
    async fn period_ticket_counts(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
        end: OffsetDateTime,
    ) -> Result<PeriodTicketCounts, StoreError>;
    /// Up to `limit` settled tickets with money (cashed out, lost, refunding, refunded)
    /// bought in `[start, end)`, in purchase order after `after`.
    async fn report_lines(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
        end: OffsetDateTime,
        after: Option<LineCursor>,
        limit: u32,
    ) -> Result<Vec<ReportLineRecord>, StoreError>;
    /// The last document of the operator's chain.
    async fn last_chain_document(&self, operator: OperatorId) -> Result<Option<ChainDocument>, StoreError>;
    /// The document at `sequence` of the operator's chain.
    async fn chain_document(&self, operator: OperatorId, sequence: u64) -> Result<Option<ChainDocument>, StoreError>;
    /// The operator's finalized report of the period starting at `start`.
    async fn report_of_period(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
    ) -> Result<Option<FinalizedReport>, StoreError>;
    /// Stores the report, its statement and `event` in one transaction; a `Duplicate`
    /// when the period is finalized or the sequence taken meanwhile (nothing stored).
    async fn store_finalized_report(&self, report: &FinalizedReport, event: &NewEvent) -> Result<(), StoreError>;
    /// Up to `limit` period starts, newest first and strictly before `before`, of the
    /// periods in which the operator bought a ticket or has a finalized report.
    async fn report_periods(
        &self,
        operator: OperatorId,
        before: Option<OffsetDateTime>,
        limit: u32,
    ) -> Result<Vec<OffsetDateTime>, StoreError>;
    /// The operator's finalized reports whose period starts in `[oldest, newest]`.
    async fn finalized_reports(
        &self,
        operator: OperatorId,
        oldest: OffsetDateTime,
        newest: OffsetDateTime,
    ) -> Result<Vec<FinalizedReport>, StoreError>;
    /// One finalized report of the operator.
    async fn find_report(
        &self,
        operator: OperatorId,
        id: SettlementReportId,
    ) -> Result<Option<FinalizedReport>, StoreError>;
    /// The sums of the report's corrections and payments so far.
    async fn report_balance(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<BalanceMoves, StoreError>;
    /// Stores the correction, its signed document and `event` in one transaction, the
    /// report row locked; `Conflict(SettlementBalance)` when the report's balance is no
    /// longer `expected`, a `Duplicate` when its sequence was taken (nothing stored).
    async fn store_correction(
        &self,
        correction: &Correction,
        expected: &BalanceMoves,
        event: &NewEvent,
    ) -> Result<(), StoreError>;
    /// One page of the operator's corrections, newest first, of one report or all.
    async fn list_corrections(
        &self,
        operator: OperatorId,
        report: Option<SettlementReportId>,
        page: PageRequest<StatementCorrectionKind>,
    ) -> Result<Page<Correction, StatementCorrectionKind>, StoreError>;
    /// Stores the payment and `event` in one transaction, the report row locked;
    /// `Conflict(SettlementBalance)` when the report's balance is no longer `expected`,
    /// `Duplicate(PaymentReference)` when the operator has a payment with its reference
    /// (nothing stored).
    async fn record_payment(
        &self,
        payment: &Payment,
        expected: &BalanceMoves,
        event: &NewEvent,
    ) -> Result<(), StoreError>;
    /// One page of the operator's payments, newest first, of one report or all.
    async fn list_payments(
        &self,
        operator: OperatorId,
        report: Option<SettlementReportId>,
        page: PageRequest<SettlementPaymentKind>,
    ) -> Result<Page<Payment, SettlementPaymentKind>, StoreError>;
}
