//! Verifying one of the operator's finalized statements as the operator would verify its
//! export: the signed statement, its ticket lines exactly as the export serves them, the
//! statement's player key and the document before it in the operator's chain, checked
//! against the platform's published keys (current and retired) by `opinion-proof`'s
//! `verify_statement`. Nothing is taken from the stored report's own figures: a stored
//! statement changed after signing fails its signature, and lines that no longer add up
//! fail their checks. The lines are read in chunks and held for the check, as an export
//! of them is (about a hundred bytes a line).

use opinion_core::{OperatorId, SettlementReportId};
use opinion_proof::{StatementEvidence, StatementVerification, verify_statement};
use opinion_statement::KnownKey;

use crate::error::AppError;
use crate::flight::office::lines_csv::{header_row, line_row};
use crate::flight::office::{FlightOffice, ReportAddress};
use crate::model::rfc3339;

impl FlightOffice {
    /// Every verifier's check of the operator's finalized report `report`'s statement;
    /// another operator's report is not found.
    pub async fn verify_statement(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<StatementVerification, AppError> {
        let (finalized, mut lines) = self.export_report(operator, ReportAddress::Id(report)).await?;
        let mut csv = header_row();
        while let Some(chunk) = lines.next_chunk().await? {
            for record in &chunk {
                csv.extend(line_row(record));
            }
        }
        let player_key = self.report_secrets(operator, report).await?.map(|(key, _)| key);
        let sequence = finalized.statement.sequence;
        let previous = match sequence.checked_sub(1).filter(|before| *before >= 1) {
            Some(before) => self.ports.store.chain_document(operator, before).await?,
            None => None,
        };
        let keys: Vec<(String, KnownKey)> = self
            .statement_keys()
            .await?
            .into_iter()
            .map(|record| {
                let known = KnownKey {
                    public_key: record.public_key,
                    retired_at: record.retired_at.map(rfc3339),
                };
                (record.key_id.to_string(), known)
            })
            .collect();
        let evidence = StatementEvidence {
            signed: &finalized.statement.signed,
            lines: &csv,
            player_key: player_key.as_ref(),
            previous: previous.as_ref().map(|document| &document.signed.document),
        };
        Ok(verify_statement(&evidence, |id| {
            keys.iter().find(|(known, _)| known == id).map(|(_, key)| key.clone())
        }))
    }
}
