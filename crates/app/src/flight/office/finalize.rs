//! Finalizing an operator's settlement report of one period: once the period has ended
//! and every ticket of it has settled, its lines are walked in keyset chunks (constant
//! memory), summed by the domain (`ReportTotals::plus`), hashed as the ticket-lines CSV
//! and built into the v5 proof's tree (players tagged with a fresh player key, every leaf
//! hash and block root kept for proofs, `proofs.rs`). One exchange quote is taken when
//! the operator reports in another currency than IDR, and frozen. The statement is
//! chained after the operator's last document, signed, and stored with the report and
//! `mini_app.flight.settlement_report.finalized` in one transaction. Two instances
//! finalizing at once end with one report: the loser finds it stored and forgets its
//! proof's pieces.

use opinion_core::{EventId, OperatorId, SettlementReportId};
use opinion_flight::{
    FinalizationBlocker, PeriodState, ReportTotals, SettlementPeriod, due_date, finalization_blockers,
};
use opinion_proof::{ExchangeEvidence, PlayerKey, reporting_pair};
use opinion_statement::{ChainLink, document_hash, sign};
use opinion_webhook::EventType;
use serde_json::json;
use time::{Duration, OffsetDateTime};

use crate::error::AppError;
use crate::flight::events::IDR;
use crate::flight::exchange::ExchangeAnswer;
use crate::flight::office::FlightOffice;
use crate::flight::office::lines_csv::LinesHasher;
use crate::flight::office::model::{ChainDocument, DocumentKind, FinalizedReport};
use crate::flight::office::proof_ports::ReportProofRecord;
use crate::flight::office::statement::{StatementFacts, statement_document};
use crate::flight::terms::terms_in_force;
use crate::model::{NewEvent, rfc3339};
use crate::ports::StoreError;

/// How many lines one chunk of the walk reads.
pub const LINES_CHUNK: u32 = 500;

/// How often a finalization chains again after losing its sequence to another document.
const CHAIN_ATTEMPTS: u32 = 5;

/// What a finalization did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FinalizeOutcome {
    /// The report is finalized now, with its signed statement.
    Finalized(Box<FinalizedReport>),
    /// It was finalized before (by another instance, or earlier): nothing changed.
    AlreadyFinalized(Box<FinalizedReport>),
    /// It cannot be finalized yet, for every one of these reasons.
    Refused(Vec<FinalizationBlocker>),
}

impl FlightOffice {
    /// Finalizes the operator's report of the period containing `instant` (calendar
    /// months UTC: pass the month's first instant).
    pub async fn finalize_report(
        &self,
        operator: OperatorId,
        instant: OffsetDateTime,
    ) -> Result<FinalizeOutcome, AppError> {
        let (start, end) = SettlementPeriod::CalendarMonth.period_containing(instant);
        if let Some(report) = self.ports.store.report_of_period(operator, start).await? {
            return Ok(FinalizeOutcome::AlreadyFinalized(Box::new(report)));
        }
        let now = self.ports.clock.now();
        let counts = self.ports.store.period_ticket_counts(operator, start, end).await?;
        let blockers = finalization_blockers(
            PeriodState {
                ends_at: end,
                unsettled: counts.unsettled,
                in_review: counts.in_review,
            },
            now,
        );
        if !blockers.is_empty() {
            return Ok(FinalizeOutcome::Refused(blockers));
        }
        let key = self.current_signing_key().await?;
        let terms = terms_in_force(
            self.ports.flight.terms_versions(operator).await?,
            end - Duration::microseconds(1),
        )
        .ok_or(AppError::NotFound("flight terms in force during the period"))?;
        let due = due_date(end, terms.version.terms.payment_due_days());
        let report_id = SettlementReportId::from_ulid(self.ports.random.ulid());
        let player_key = PlayerKey::from_bytes(self.ports.random.secret_bytes());
        let walked = self
            .walk_statement_lines(operator, (start, end), report_id, &player_key)
            .await?;
        let (totals, lines_sha256) = (walked.totals, walked.lines_sha256);
        let (evidence, exchange_answer) = self.exchange_evidence(operator).await?;
        self.ports
            .proofs
            .store_report_proof(&ReportProofRecord {
                operator_id: operator,
                report_id,
                merkle_root: walked.summary.merkle_root,
                leaf_count: walked.summary.leaf_count,
                player_key,
                exchange_answer,
            })
            .await?;
        for _ in 0..CHAIN_ATTEMPTS {
            let issued_at = self.ports.clock.now();
            let link = match self.ports.store.last_chain_document(operator).await? {
                Some(last) => ChainLink::after(&last.signed.document).map_err(|e| AppError::Internal(e.to_string()))?,
                None => ChainLink::first(),
            };
            let document = statement_document(&StatementFacts {
                operator_id: operator,
                report_id,
                period: (start, end),
                totals: &totals,
                due_date: due,
                lines_sha256: &lines_sha256,
                proof: &walked.summary,
                evidence: evidence.as_ref(),
                issued_at,
                link: &link,
            });
            let signed = sign(document, key).map_err(|e| AppError::Internal(e.to_string()))?;
            let hash = document_hash(&signed.document).map_err(|e| AppError::Internal(e.to_string()))?;
            let report = FinalizedReport {
                id: report_id,
                operator_id: operator,
                period_start: start,
                period_end: end,
                totals,
                due_date: due,
                lines_sha256: lines_sha256.clone(),
                statement: ChainDocument {
                    operator_id: operator,
                    id: report_id.as_u128(),
                    kind: DocumentKind::Statement,
                    sequence: link.sequence,
                    signed,
                    hash,
                    issued_at,
                },
                finalized_at: issued_at,
            };
            let event = self.report_finalized(&report);
            match self.ports.store.store_finalized_report(&report, &event).await {
                Ok(()) => {
                    tracing::info!(operator_id = %operator, report_id = %report_id, period_start = %rfc3339(start), sequence = link.sequence, "settlement report finalized");
                    return Ok(FinalizeOutcome::Finalized(Box::new(report)));
                }
                Err(StoreError::Duplicate(_)) => {
                    if let Some(stored) = self.ports.store.report_of_period(operator, start).await? {
                        self.ports.proofs.discard_report_proof(operator, report_id).await?;
                        return Ok(FinalizeOutcome::AlreadyFinalized(Box::new(stored)));
                    }
                }
                Err(error) => return Err(error.into()),
            }
        }
        Err(AppError::Internal(format!(
            "the operator's statement chain kept moving; finalize {} again",
            rfc3339(start)
        )))
    }

    /// The comparison-only evidence of the operator's statement, with the raw answer to
    /// keep: one quote of its reporting currency in IDR, taken now; none when it reports
    /// in IDR.
    async fn exchange_evidence(
        &self,
        operator: OperatorId,
    ) -> Result<(Option<ExchangeEvidence>, Option<Vec<u8>>), AppError> {
        let found = self
            .ports
            .operators
            .find_operator(operator)
            .await?
            .ok_or(AppError::NotFound("operator"))?;
        let Some(pair) = reporting_pair(found.currency) else {
            return Ok((None, None));
        };
        let ExchangeAnswer { evidence, raw_answer } = self.ports.exchange.evidence(&pair).await;
        Ok((Some(evidence), raw_answer))
    }

    /// The period's lines, walked chunk by chunk: their totals and the SHA-256 of their
    /// CSV.
    pub(crate) async fn walk_lines(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
        end: OffsetDateTime,
    ) -> Result<(ReportTotals, String), AppError> {
        let mut totals = ReportTotals::default();
        let mut hasher = LinesHasher::new();
        let mut after = None;
        loop {
            let chunk = self
                .ports
                .store
                .report_lines(operator, start, end, after, LINES_CHUNK)
                .await?;
            for record in &chunk {
                totals = totals.plus(&record.line);
                hasher.add(record);
            }
            match chunk.last() {
                Some(last) if chunk.len() == LINES_CHUNK as usize => after = Some((last.purchased_at, last.ticket_id)),
                _ => return Ok((totals, hasher.finish())),
            }
        }
    }

    /// `mini_app.flight.settlement_report.finalized`, with the statement's figures.
    fn report_finalized(&self, report: &FinalizedReport) -> NewEvent {
        let totals = &report.totals;
        let (amount_due, direction) = totals.amount_due();
        let data = json!({
            "reportId": report.id,
            "periodStart": rfc3339(report.period_start),
            "periodEnd": rfc3339(report.period_end),
            "ticketCount": totals.ticket_count,
            "stakes": totals.stakes.to_string(),
            "payouts": totals.payouts.to_string(),
            "refunds": totals.refunds.to_string(),
            "ggr": totals.ggr.to_string(),
            "share": totals.share.to_string(),
            "amountDue": amount_due.get().to_string(),
            "direction": direction.as_str(),
            "dueDate": report.due_date.to_string(),
            "currency": IDR,
            "statementHash": report.statement.hash.to_string(),
            "finalizedAt": rfc3339(report.finalized_at),
        });
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            report.operator_id,
            EventType::FlightSettlementReportFinalized,
            data,
            report.finalized_at,
        )
    }
}
