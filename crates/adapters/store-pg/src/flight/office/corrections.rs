//! Statement corrections and a finalized report's balance. A correction is stored with
//! its signed document and event in one transaction that first locks the report row
//! (`FOR UPDATE`) and re-reads the balance, so corrections and payments of one report
//! are written one after the other, each against the balance the other left; the
//! balance is the sums of the report's corrections and payments. Nothing stored here is
//! ever updated (a trigger refuses it).

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::office::model::{BalanceMoves, Correction};
use opinion_app::model::NewEvent;
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::{OperatorId, Page, PageRequest, SettlementReportId, StatementCorrectionKind};
use opinion_statement::DocumentHash;
use time::OffsetDateTime;
use uuid::Uuid;

use super::reports::{StatementRow, statements_at};
use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{id_of, uuid_of};
use crate::db::keyset_page::keyset_page;
use crate::db::schema::{flight_settlement_reports, flight_statement_corrections, flight_statements};
use crate::webhooks::outbox::enqueue_events;

const BALANCE: &str = "\
SELECT (SELECT coalesce(sum(amount_change), 0) FROM flight_statement_corrections \
         WHERE operator_id = $1 AND report_id = $2)::bigint AS corrections, \
       (SELECT coalesce(sum(amount), 0) FROM flight_settlement_payments \
         WHERE operator_id = $1 AND report_id = $2 AND direction = 'operator_to_platform')::bigint \
         AS paid_to_platform, \
       (SELECT coalesce(sum(amount), 0) FROM flight_settlement_payments \
         WHERE operator_id = $1 AND report_id = $2 AND direction = 'platform_to_operator')::bigint \
         AS paid_to_operator";

#[derive(QueryableByName)]
struct BalanceRow {
    #[diesel(sql_type = BigInt)]
    corrections: i64,
    #[diesel(sql_type = BigInt)]
    paid_to_platform: i64,
    #[diesel(sql_type = BigInt)]
    paid_to_operator: i64,
}

/// The sums of a report's corrections and payments.
pub(super) async fn balance(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    report: SettlementReportId,
) -> Result<BalanceMoves, diesel::result::Error> {
    let row: BalanceRow = sql_query(BALANCE)
        .bind::<SqlUuid, _>(uuid_of(operator))
        .bind::<SqlUuid, _>(uuid_of(report))
        .get_result(conn)
        .await?;
    Ok(BalanceMoves {
        corrections: row.corrections,
        paid_to_platform: row.paid_to_platform,
        paid_to_operator: row.paid_to_operator,
    })
}

/// Why a transaction that writes against a report's balance stopped.
pub(super) enum BalanceWrite {
    /// The database refused (the balance moved, or a unique key).
    Database(diesel::result::Error),
    /// The balance is no longer what the caller computed with.
    Moved,
}

impl From<diesel::result::Error> for BalanceWrite {
    fn from(error: diesel::result::Error) -> Self {
        Self::Database(error)
    }
}

impl BalanceWrite {
    /// The port's error.
    pub(super) fn into_store_error(self) -> StoreError {
        match self {
            Self::Database(error) => from_diesel(error),
            Self::Moved => StoreError::Conflict(ChangedRecord::SettlementBalance),
        }
    }
}

/// Locks the report row for the rest of the transaction and checks its balance is still
/// `expected`.
pub(super) async fn lock_balance(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    report: SettlementReportId,
    expected: &BalanceMoves,
) -> Result<(), BalanceWrite> {
    flight_settlement_reports::table
        .find((uuid_of(operator), uuid_of(report)))
        .select(flight_settlement_reports::id)
        .for_update()
        .first::<Uuid>(conn)
        .await?;
    if balance(conn, operator, report).await? == *expected {
        Ok(())
    } else {
        Err(BalanceWrite::Moved)
    }
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = flight_statement_corrections, check_for_backend(diesel::pg::Pg))]
struct CorrectionRow {
    operator_id: Uuid,
    id: Uuid,
    report_id: Uuid,
    statement_hash: String,
    amount_change: i64,
    reason: String,
    issued_by: String,
    document_sequence: i64,
    issued_at: OffsetDateTime,
}

/// Stores the correction, its document and its event, against the balance `expected`.
pub(super) async fn store(
    conn: &mut AsyncPgConnection,
    correction: &Correction,
    expected: &BalanceMoves,
    event: &NewEvent,
) -> Result<(), StoreError> {
    let document = StatementRow::new(&correction.document)?;
    let row = CorrectionRow {
        operator_id: uuid_of(correction.operator_id),
        id: uuid_of(correction.id),
        report_id: uuid_of(correction.report_id),
        statement_hash: correction.statement_hash.to_string(),
        amount_change: correction.amount_change,
        reason: correction.reason.clone(),
        issued_by: correction.issued_by.clone(),
        document_sequence: i64::try_from(correction.document.sequence).unwrap_or(i64::MAX),
        issued_at: correction.issued_at,
    };
    conn.transaction::<_, BalanceWrite, _>(async |conn| {
        lock_balance(conn, correction.operator_id, correction.report_id, expected).await?;
        diesel::insert_into(flight_statements::table)
            .values(&document)
            .execute(conn)
            .await?;
        diesel::insert_into(flight_statement_corrections::table)
            .values(&row)
            .execute(conn)
            .await?;
        enqueue_events(conn, std::slice::from_ref(event)).await?;
        Ok(())
    })
    .await
    .map_err(BalanceWrite::into_store_error)
}

/// One page of the operator's corrections, newest first, of one report or all.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    report: Option<SettlementReportId>,
    page: PageRequest<StatementCorrectionKind>,
) -> Result<Page<Correction, StatementCorrectionKind>, StoreError> {
    let mut query = flight_statement_corrections::table
        .filter(flight_statement_corrections::operator_id.eq(uuid_of(operator)))
        .select(CorrectionRow::as_select())
        .order(flight_statement_corrections::id.desc())
        .into_boxed();
    if let Some(report) = report {
        query = query.filter(flight_statement_corrections::report_id.eq(uuid_of(report)));
    }
    if let Some(after) = page.after {
        query = query.filter(flight_statement_corrections::id.lt(uuid_of(after.position())));
    }
    let rows: Vec<CorrectionRow> = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let sequences: Vec<i64> = rows.iter().map(|row| row.document_sequence).collect();
    let mut documents = statements_at(conn, uuid_of(operator), &sequences).await?;
    let mut corrections = Vec::with_capacity(rows.len());
    for row in rows {
        let bad = |problem: &dyn std::fmt::Display| corrupt("flight_statement_corrections", row.id, problem);
        let document = documents
            .remove(&row.document_sequence)
            .ok_or_else(|| bad(&"its document is missing"))?;
        corrections.push(Correction {
            id: id_of(row.id),
            operator_id: id_of(row.operator_id),
            report_id: id_of(row.report_id),
            statement_hash: DocumentHash::parse(&row.statement_hash).ok_or_else(|| bad(&"statement hash"))?,
            amount_change: row.amount_change,
            reason: row.reason,
            issued_by: row.issued_by,
            document,
            issued_at: row.issued_at,
        });
    }
    Ok(Page::from_overfetch(corrections, page.limit, |c: &Correction| c.id))
}
