//! Issuing a statement correction: platform staff amend a finalized report by a signed
//! change of what the operator owes the platform, with the reason. A finalized statement
//! never changes; the correction is its own signed document, naming the statement it
//! amends (`statementHash`, `statementSequence`), the change, the amount due before and
//! after it (corrections only: payments are not part of a signed document), and why. It
//! is a v5 document: `proofVersion` 5, the amended statement's tree (`merkleRoot`,
//! `leafCount`: a correction changes money, never tickets), every amount with its currency. It
//! is chained after the operator's last document and stored with
//! `mini_app.flight.statement_correction.issued` in one transaction, the report row
//! locked; a correction that lost its sequence to another document, or whose report's
//! balance moved meanwhile, is made again from what is stored now.

use opinion_core::{EventId, StatementCorrectionId};
use opinion_flight::SettlementBalance;
use opinion_proof::{CorrectionMoney, ProofSummary, write_correction_proof_fields};
use opinion_statement::{ChainLink, document_hash, sign};
use opinion_webhook::EventType;
use serde_json::{Map, Value, json};

use crate::error::{AppError, ProblemCode};
use crate::flight::events::IDR;
use crate::flight::office::model::{BalanceMoves, ChainDocument, Correction, DocumentKind, FinalizedReport};
use crate::flight::office::{FlightOffice, PERIOD, ReportAddress};
use crate::flight::terms::staff_name;
use crate::model::{NewEvent, rfc3339};
use crate::ports::{ChangedRecord, StoreError};

/// The `type` of a correction document.
pub const CORRECTION_TYPE: &str = "flight_statement_correction";

/// The longest reason accepted, in characters.
pub const MAX_REASON: usize = 1_000;

/// The largest change one correction makes, in rupiah either way (a typo guard far above
/// any real period's share).
pub const MAX_CHANGE: i64 = 1_000_000_000_000_000;

/// How often a correction is made again after losing its sequence or its balance.
const ATTEMPTS: u32 = 5;

/// What staff ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorrectionRequest {
    /// Whose report.
    pub operator: opinion_core::OperatorId,
    /// The finalized report whose statement is amended (its id or its period).
    pub report: ReportAddress,
    /// The signed change of what the operator owes the platform (negative: it owes less,
    /// or the platform owes it more).
    pub amount_change: i64,
    /// Why.
    pub reason: String,
    /// Who issues it.
    pub by: String,
}

impl CorrectionRequest {
    fn check(&self) -> Result<(), AppError> {
        if self.amount_change == 0 {
            return Err(AppError::invalid(
                "amountChange",
                "a correction changes the amount: not 0",
            ));
        }
        if self.amount_change.unsigned_abs() > MAX_CHANGE.unsigned_abs() {
            return Err(AppError::invalid(
                "amountChange",
                format!("at most {MAX_CHANGE} rupiah either way"),
            ));
        }
        let reason = self.reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_REASON {
            return Err(AppError::invalid("reason", format!("1 to {MAX_REASON} characters")));
        }
        staff_name(&self.by)?;
        Ok(())
    }
}

/// What a correction's document says besides its report and link.
struct Amendment<'a> {
    id: StatementCorrectionId,
    amount_change: i64,
    reason: &'a str,
    issued_at: time::OffsetDateTime,
}

/// A correction's v5 document, before signing (signing adds `keyId`); `None` when the
/// amended statement names no tree, which a finalized statement always does.
fn correction_document(
    amendment: &Amendment<'_>,
    report: &FinalizedReport,
    before: &SettlementBalance,
    link: &ChainLink,
) -> Option<Value> {
    let amended = ProofSummary::named_in(&report.statement.signed.document)?;
    let mut fields = Map::new();
    fields.insert("type".into(), json!(CORRECTION_TYPE));
    fields.insert("operatorId".into(), json!(report.operator_id));
    fields.insert("correctionId".into(), json!(amendment.id));
    fields.insert("reportId".into(), json!(report.id));
    fields.insert("periodStart".into(), json!(rfc3339(report.period_start)));
    fields.insert("periodEnd".into(), json!(rfc3339(report.period_end)));
    fields.insert("statementHash".into(), json!(report.statement.hash.to_string()));
    fields.insert("statementSequence".into(), json!(report.statement.sequence));
    fields.insert("currency".into(), json!(IDR));
    fields.insert("reason".into(), json!(amendment.reason));
    fields.insert("issuedAt".into(), json!(rfc3339(amendment.issued_at)));
    write_correction_proof_fields(
        &mut fields,
        &amended,
        &CorrectionMoney::of(before, amendment.amount_change),
    );
    link.write_into(&mut fields);
    Some(Value::Object(fields))
}

/// A finalized report's balance from its stored moves.
pub(crate) fn balance_of(report: &FinalizedReport, moves: &BalanceMoves) -> SettlementBalance {
    SettlementBalance {
        share: report.totals.share,
        corrections: moves.corrections,
        paid_to_platform: moves.paid_to_platform,
        paid_to_operator: moves.paid_to_operator,
    }
}

impl FlightOffice {
    /// Issues a signed correction of the operator's finalized report; an open report is
    /// refused (`report_not_finalized`): there is no statement to amend yet.
    pub async fn issue_correction(&self, request: CorrectionRequest) -> Result<Correction, AppError> {
        request.check()?;
        let report = self.finalized_for(request.operator, request.report).await?;
        let key = self.current_signing_key().await?;
        let id = StatementCorrectionId::from_ulid(self.ports.random.ulid());
        for _ in 0..ATTEMPTS {
            let link = match self.ports.store.last_chain_document(request.operator).await? {
                Some(last) => ChainLink::after(&last.signed.document).map_err(|e| AppError::Internal(e.to_string()))?,
                None => ChainLink::first(),
            };
            let moves = self.ports.store.report_balance(report.operator_id, report.id).await?;
            let amendment = Amendment {
                id,
                amount_change: request.amount_change,
                reason: request.reason.trim(),
                issued_at: self.ports.clock.now(),
            };
            let document =
                correction_document(&amendment, &report, &balance_of(&report, &moves), &link).ok_or_else(|| {
                    AppError::Internal(format!("the statement of report {} names no proof tree", report.id))
                })?;
            let signed = sign(document, key).map_err(|e| AppError::Internal(e.to_string()))?;
            let hash = document_hash(&signed.document).map_err(|e| AppError::Internal(e.to_string()))?;
            let correction = Correction {
                id,
                operator_id: request.operator,
                report_id: report.id,
                statement_hash: report.statement.hash.clone(),
                amount_change: request.amount_change,
                reason: amendment.reason.to_owned(),
                issued_by: request.by.trim().to_owned(),
                document: ChainDocument {
                    operator_id: request.operator,
                    id: id.as_u128(),
                    kind: DocumentKind::Correction,
                    sequence: link.sequence,
                    signed,
                    hash,
                    issued_at: amendment.issued_at,
                },
                issued_at: amendment.issued_at,
            };
            let event = self.correction_issued(&correction);
            match self.ports.store.store_correction(&correction, &moves, &event).await {
                Ok(()) => {
                    tracing::info!(operator_id = %request.operator, report_id = %report.id, correction_id = %id, sequence = link.sequence, "statement correction issued");
                    return Ok(correction);
                }
                Err(StoreError::Duplicate(_) | StoreError::Conflict(ChangedRecord::SettlementBalance)) => {}
                Err(error) => return Err(error.into()),
            }
        }
        Err(AppError::Conflict {
            code: ProblemCode::ConcurrentChange,
            detail: "the operator's statement chain kept moving; issue the correction again".into(),
        })
    }

    /// The finalized report `address` names; an open one is `report_not_finalized`.
    pub(crate) async fn finalized_for(
        &self,
        operator: opinion_core::OperatorId,
        address: ReportAddress,
    ) -> Result<FinalizedReport, AppError> {
        let report = self.report(operator, address).await?;
        report.finalized.ok_or_else(|| AppError::Conflict {
            code: ProblemCode::ReportNotFinalized,
            detail: format!(
                "the report of {} is open: only a finalized report can be corrected or paid",
                PERIOD.label(report.period_start)
            ),
        })
    }

    /// `mini_app.flight.statement_correction.issued`.
    fn correction_issued(&self, correction: &Correction) -> NewEvent {
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            correction.operator_id,
            EventType::FlightStatementCorrectionIssued,
            json!({
                "correctionId": correction.id,
                "reportId": correction.report_id,
                "statementHash": correction.statement_hash.to_string(),
                "amountChange": correction.amount_change.to_string(),
                "currency": IDR,
                "reason": correction.reason,
                "issuedAt": rfc3339(correction.issued_at),
            }),
            correction.issued_at,
        )
    }
}
