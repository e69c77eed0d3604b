//! `OfficeStore`: the period's tickets for finalization (counts and keyset chunks of
//! lines, in purchase order), the operators' chains of signed documents, and finalized
//! reports, stored with their statement and event in one transaction; corrections and
//! balances are `corrections.rs`'s, payments `payments.rs`'s. Nothing stored here is ever updated (a trigger
//! refuses it).

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::office::model::{
    BalanceMoves, ChainDocument, Correction, DocumentKind, FinalizedReport, LineCursor, Payment, ReportLineRecord,
};
use opinion_app::flight::office::ports::{OfficeStore, PeriodTicketCounts};
use opinion_app::model::NewEvent;
use opinion_app::ports::StoreError;
use opinion_core::{
    OperatorId, Page, PageRequest, SettlementPaymentKind, SettlementReportId, StatementCorrectionKind, TicketId,
};
use opinion_flight::{ReportLine, ReportTotals, Rupiah, ShareBps, TicketStatus};
use opinion_statement::{DocumentHash, DocumentSignature, SignedDocument};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::{flight_settlement_reports, flight_statements, flight_tickets};
use crate::webhooks::outbox::enqueue_events;

/// Statuses whose money a report counts.
pub(super) const WITH_MONEY: [&str; 4] = ["cashed_out", "lost", "refunding", "refunded"];

/// A row of `flight_statements`: one signed document of an operator's chain.
#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = flight_statements, check_for_backend(diesel::pg::Pg))]
pub(super) struct StatementRow {
    operator_id: Uuid,
    sequence: i64,
    id: Uuid,
    kind: String,
    document: String,
    document_hash: String,
    previous_hash: Option<String>,
    key_id: String,
    signature: String,
    issued_at: OffsetDateTime,
}

impl StatementRow {
    pub(super) fn new(document: &ChainDocument) -> Result<Self, StoreError> {
        let text = serde_json::to_string(&document.signed.document)
            .map_err(|e| StoreError::Unavailable(format!("statement document: {e}")))?;
        let previous = document
            .signed
            .document
            .get("previousHash")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        Ok(Self {
            operator_id: uuid_of(document.operator_id),
            sequence: i64::try_from(document.sequence).unwrap_or(i64::MAX),
            id: Uuid::from_u128(document.id),
            kind: document.kind.as_str().to_owned(),
            document: text,
            document_hash: document.hash.to_string(),
            previous_hash: previous,
            key_id: document.signed.signature.key_id.clone(),
            signature: document.signed.signature.value.clone(),
            issued_at: document.issued_at,
        })
    }

    pub(super) fn into_document(self) -> Result<ChainDocument, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("flight_statements", self.id, problem);
        let document: serde_json::Value = serde_json::from_str(&self.document).map_err(|e| bad(&e))?;
        let hash = DocumentHash::parse(&self.document_hash).ok_or_else(|| bad(&"document hash"))?;
        let kind = match self.kind.as_str() {
            "statement" => DocumentKind::Statement,
            "correction" => DocumentKind::Correction,
            other => return Err(bad(&format!("kind {other}"))),
        };
        Ok(ChainDocument {
            operator_id: id_of(self.operator_id),
            id: self.id.as_u128(),
            kind,
            sequence: u64::try_from(self.sequence).map_err(|e| bad(&e))?,
            signed: SignedDocument {
                document,
                signature: DocumentSignature {
                    algorithm: "Ed25519".into(),
                    key_id: self.key_id,
                    value: self.signature,
                },
            },
            hash,
            issued_at: self.issued_at,
        })
    }
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = flight_settlement_reports, check_for_backend(diesel::pg::Pg))]
struct ReportRow {
    operator_id: Uuid,
    id: Uuid,
    period_start: OffsetDateTime,
    period_end: OffsetDateTime,
    ticket_count: i64,
    stakes: i64,
    payouts: i64,
    refunds: i64,
    ggr: i64,
    share: i64,
    amount_due: i64,
    direction: String,
    due_date: Date,
    lines_sha256: String,
    statement_sequence: i64,
    finalized_at: OffsetDateTime,
}

impl ReportRow {
    fn new(report: &FinalizedReport) -> Self {
        let totals = &report.totals;
        let (amount_due, direction) = totals.amount_due();
        Self {
            operator_id: uuid_of(report.operator_id),
            id: uuid_of(report.id),
            period_start: report.period_start,
            period_end: report.period_end,
            ticket_count: i64::try_from(totals.ticket_count).unwrap_or(i64::MAX),
            stakes: totals.stakes,
            payouts: totals.payouts,
            refunds: totals.refunds,
            ggr: totals.ggr,
            share: totals.share,
            amount_due: amount_due.get(),
            direction: direction.as_str().to_owned(),
            due_date: report.due_date,
            lines_sha256: report.lines_sha256.clone(),
            statement_sequence: i64::try_from(report.statement.sequence).unwrap_or(i64::MAX),
            finalized_at: report.finalized_at,
        }
    }

    fn into_report(self, statement: ChainDocument) -> Result<FinalizedReport, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("flight_settlement_reports", self.id, problem);
        Ok(FinalizedReport {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            period_start: self.period_start,
            period_end: self.period_end,
            totals: ReportTotals {
                ticket_count: u64::try_from(self.ticket_count).map_err(|e| bad(&e))?,
                stakes: self.stakes,
                payouts: self.payouts,
                refunds: self.refunds,
                ggr: self.ggr,
                share: self.share,
            },
            due_date: self.due_date,
            lines_sha256: self.lines_sha256,
            statement,
            finalized_at: self.finalized_at,
        })
    }
}

#[derive(Debug, Queryable)]
pub(super) struct LineRow {
    id: Uuid,
    flight_id: Uuid,
    external_user_id: String,
    created_at: OffsetDateTime,
    status: String,
    stake: i64,
    payout: Option<i64>,
    share_bps: i32,
}

impl LineRow {
    pub(super) fn into_record(self) -> Result<ReportLineRecord, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("flight_tickets", self.id, problem);
        let status: TicketStatus = self.status.parse().map_err(|e| bad(&e))?;
        let outcome = match status {
            TicketStatus::CashedOut => "cashed_out",
            TicketStatus::Lost => "lost",
            TicketStatus::Refunding | TicketStatus::Refunded => "refunded",
            other => return Err(bad(&format!("status {other} has no report line"))),
        };
        let stake = Rupiah::new(self.stake).map_err(|e| bad(&e))?;
        let payout = match outcome {
            "cashed_out" => Rupiah::new(self.payout.unwrap_or(0)).map_err(|e| bad(&e))?,
            _ => Rupiah::ZERO,
        };
        let refund = if outcome == "refunded" { stake } else { Rupiah::ZERO };
        let share_bps = u16::try_from(self.share_bps)
            .ok()
            .and_then(|bps| ShareBps::new(bps).ok())
            .ok_or_else(|| bad(&"share bps"))?;
        Ok(ReportLineRecord {
            ticket_id: id_of(self.id),
            flight_id: id_of(self.flight_id),
            external_user_id: self.external_user_id,
            purchased_at: self.created_at,
            outcome,
            line: ReportLine {
                stake,
                payout,
                refund,
                share_bps,
            },
        })
    }
}

/// The finalized reports `rows` with their statements.
async fn with_statements(
    conn: &mut AsyncPgConnection,
    rows: Vec<ReportRow>,
) -> Result<Vec<FinalizedReport>, StoreError> {
    let Some(operator) = rows.iter().map(|row| row.operator_id).next() else {
        return Ok(Vec::new());
    };
    let sequences: Vec<i64> = rows.iter().map(|row| row.statement_sequence).collect();
    let mut statements = statements_at(conn, operator, &sequences).await?;
    rows.into_iter()
        .map(|row| {
            let statement = statements
                .remove(&row.statement_sequence)
                .ok_or_else(|| corrupt("flight_settlement_reports", row.id, &"its statement is missing"))?;
            row.into_report(statement)
        })
        .collect()
}

/// The operator's chain documents at `sequences`, in one read, by sequence.
pub(super) async fn statements_at(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    sequences: &[i64],
) -> Result<HashMap<i64, ChainDocument>, StoreError> {
    let rows: Vec<StatementRow> = flight_statements::table
        .filter(flight_statements::operator_id.eq(operator))
        .filter(flight_statements::sequence.eq_any(sequences))
        .select(StatementRow::as_select())
        .load(conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter()
        .map(|row| {
            let document = row.into_document()?;
            Ok((i64::try_from(document.sequence).unwrap_or(i64::MAX), document))
        })
        .collect()
}

/// The operator's chain document at `sequence`.
pub(super) async fn statement_at(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    sequence: i64,
) -> Result<ChainDocument, StoreError> {
    let row: StatementRow = flight_statements::table
        .find((operator, sequence))
        .select(StatementRow::as_select())
        .first(conn)
        .await
        .map_err(from_diesel)?;
    row.into_document()
}

#[async_trait]
impl OfficeStore for PgStore {
    async fn period_ticket_counts(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
        end: OffsetDateTime,
    ) -> Result<PeriodTicketCounts, StoreError> {
        let mut conn = self.conn().await?;
        let rows: Vec<(String, i64)> = flight_tickets::table
            .filter(flight_tickets::operator_id.eq(uuid_of(operator)))
            .filter(flight_tickets::created_at.ge(start))
            .filter(flight_tickets::created_at.lt(end))
            .filter(flight_tickets::status.eq_any(["pending", "active", "review"]))
            .group_by(flight_tickets::status)
            .select((flight_tickets::status, diesel::dsl::count_star()))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        let mut counts = PeriodTicketCounts::default();
        for (status, count) in rows {
            let count = u64::try_from(count).unwrap_or_default();
            if status == "review" {
                counts.in_review += count;
            } else {
                counts.unsettled += count;
            }
        }
        Ok(counts)
    }

    async fn report_lines(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
        end: OffsetDateTime,
        after: Option<LineCursor>,
        limit: u32,
    ) -> Result<Vec<ReportLineRecord>, StoreError> {
        let mut conn = self.conn().await?;
        let mut query = flight_tickets::table
            .filter(flight_tickets::operator_id.eq(uuid_of(operator)))
            .filter(flight_tickets::created_at.ge(start))
            .filter(flight_tickets::created_at.lt(end))
            .filter(flight_tickets::status.eq_any(WITH_MONEY))
            .into_boxed();
        if let Some((at, ticket)) = after {
            let ticket: TicketId = ticket;
            // The redundant `created_at >= at` is the index range's start: the row
            // comparison alone, written as an OR, would make every chunk scan the period
            // from its beginning (quadratic over a period).
            query = query.filter(flight_tickets::created_at.ge(at)).filter(
                flight_tickets::created_at.gt(at).or(flight_tickets::created_at
                    .eq(at)
                    .and(flight_tickets::id.gt(uuid_of(ticket)))),
            );
        }
        let rows: Vec<LineRow> = query
            .order((flight_tickets::created_at, flight_tickets::id))
            .limit(i64::from(limit))
            .select((
                flight_tickets::id,
                flight_tickets::flight_id,
                flight_tickets::external_user_id,
                flight_tickets::created_at,
                flight_tickets::status,
                flight_tickets::stake,
                flight_tickets::payout,
                flight_tickets::share_bps,
            ))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.into_iter().map(LineRow::into_record).collect()
    }

    async fn last_chain_document(&self, operator: OperatorId) -> Result<Option<ChainDocument>, StoreError> {
        let mut conn = self.conn().await?;
        let row: Option<StatementRow> = flight_statements::table
            .filter(flight_statements::operator_id.eq(uuid_of(operator)))
            .order(flight_statements::sequence.desc())
            .select(StatementRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(StatementRow::into_document).transpose()
    }

    async fn chain_document(&self, operator: OperatorId, sequence: u64) -> Result<Option<ChainDocument>, StoreError> {
        let mut conn = self.conn().await?;
        let row: Option<StatementRow> = flight_statements::table
            .find((uuid_of(operator), i64::try_from(sequence).unwrap_or(i64::MAX)))
            .select(StatementRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(StatementRow::into_document).transpose()
    }

    async fn report_of_period(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
    ) -> Result<Option<FinalizedReport>, StoreError> {
        let mut conn = self.conn().await?;
        let row: Option<ReportRow> = flight_settlement_reports::table
            .filter(flight_settlement_reports::operator_id.eq(uuid_of(operator)))
            .filter(flight_settlement_reports::period_start.eq(start))
            .select(ReportRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some(row) = row else { return Ok(None) };
        let statement = statement_at(&mut conn, row.operator_id, row.statement_sequence).await?;
        row.into_report(statement).map(Some)
    }

    #[tracing::instrument(skip_all, fields(operator_id = %report.operator_id, report_id = %report.id))]
    async fn store_finalized_report(&self, report: &FinalizedReport, event: &NewEvent) -> Result<(), StoreError> {
        let statement = StatementRow::new(&report.statement)?;
        let row = ReportRow::new(report);
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::insert_into(flight_statements::table)
                .values(&statement)
                .execute(conn)
                .await?;
            diesel::insert_into(flight_settlement_reports::table)
                .values(&row)
                .execute(conn)
                .await?;
            enqueue_events(conn, std::slice::from_ref(event)).await
        })
        .await
        .map_err(from_diesel)
    }

    async fn report_periods(
        &self,
        operator: OperatorId,
        before: Option<OffsetDateTime>,
        limit: u32,
    ) -> Result<Vec<OffsetDateTime>, StoreError> {
        let mut conn = self.conn().await?;
        super::periods::report_periods(&mut conn, operator, before, limit).await
    }

    async fn finalized_reports(
        &self,
        operator: OperatorId,
        oldest: OffsetDateTime,
        newest: OffsetDateTime,
    ) -> Result<Vec<FinalizedReport>, StoreError> {
        let mut conn = self.conn().await?;
        let rows: Vec<ReportRow> = flight_settlement_reports::table
            .filter(flight_settlement_reports::operator_id.eq(uuid_of(operator)))
            .filter(flight_settlement_reports::period_start.ge(oldest))
            .filter(flight_settlement_reports::period_start.le(newest))
            .order(flight_settlement_reports::period_start.desc())
            .select(ReportRow::as_select())
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        with_statements(&mut conn, rows).await
    }

    async fn find_report(
        &self,
        operator: OperatorId,
        id: SettlementReportId,
    ) -> Result<Option<FinalizedReport>, StoreError> {
        let mut conn = self.conn().await?;
        let row: Option<ReportRow> = flight_settlement_reports::table
            .find((uuid_of(operator), uuid_of(id)))
            .select(ReportRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let reports = with_statements(&mut conn, row.into_iter().collect()).await?;
        Ok(reports.into_iter().next())
    }

    async fn report_balance(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<BalanceMoves, StoreError> {
        let mut conn = self.conn().await?;
        super::corrections::balance(&mut conn, operator, report)
            .await
            .map_err(from_diesel)
    }

    #[tracing::instrument(skip_all, fields(operator_id = %correction.operator_id, report_id = %correction.report_id, correction_id = %correction.id))]
    async fn store_correction(
        &self,
        correction: &Correction,
        expected: &BalanceMoves,
        event: &NewEvent,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        super::corrections::store(&mut conn, correction, expected, event).await
    }

    async fn list_corrections(
        &self,
        operator: OperatorId,
        report: Option<SettlementReportId>,
        page: PageRequest<StatementCorrectionKind>,
    ) -> Result<Page<Correction, StatementCorrectionKind>, StoreError> {
        let mut conn = self.conn().await?;
        super::corrections::list(&mut conn, operator, report, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %payment.operator_id, report_id = %payment.report_id, payment_id = %payment.id))]
    async fn record_payment(
        &self,
        payment: &Payment,
        expected: &BalanceMoves,
        event: &NewEvent,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        super::payments::record(&mut conn, payment, expected, event).await
    }

    async fn list_payments(
        &self,
        operator: OperatorId,
        report: Option<SettlementReportId>,
        page: PageRequest<SettlementPaymentKind>,
    ) -> Result<Page<Payment, SettlementPaymentKind>, StoreError> {
        let mut conn = self.conn().await?;
        super::payments::list(&mut conn, operator, report, page).await
    }
}
