//! `opinion admin flight correct` and `opinion admin flight payment …`: what platform
//! staff record against an operator's finalized settlement report. A report is named by
//! its id or its period, always with its operator, so a mistyped id cannot reach another
//! operator's report.

use anyhow::Context;
use opinion_app::flight::office::model::Correction;
use opinion_app::flight::office::{CorrectionRequest, FlightOffice, PERIOD, ReportAddress};
use opinion_core::OperatorId;
use serde_json::{Value, json};

use crate::admin::rfc3339;
use crate::cli::CorrectArgs;

/// Issues a correction and prints it with its signed document.
pub async fn correct(office: &FlightOffice, args: CorrectArgs) -> anyhow::Result<Value> {
    let correction = office
        .issue_correction(CorrectionRequest {
            operator: operator_id(&args.operator)?,
            report: report_address(&args.report)?,
            amount_change: args.amount_change,
            reason: args.reason,
            by: args.by,
        })
        .await?;
    Ok(correction_json(&correction))
}

fn correction_json(correction: &Correction) -> Value {
    json!({
        "correctionId": correction.id,
        "reportId": correction.report_id,
        "statementHash": correction.statement_hash.to_string(),
        "amountChange": correction.amount_change.to_string(),
        "reason": correction.reason,
        "issuedBy": correction.issued_by,
        "issuedAt": rfc3339(correction.issued_at),
        "sequence": correction.document.sequence,
        "documentHash": correction.document.hash.to_string(),
        "document": correction.document.signed,
    })
}

fn operator_id(text: &str) -> anyhow::Result<OperatorId> {
    text.parse().context("--operator must be an operator id (op_…)")
}

/// `fsr_…` or a period `YYYY-MM`.
fn report_address(text: &str) -> anyhow::Result<ReportAddress> {
    if let Ok(start) = PERIOD.parse_label(text) {
        return Ok(ReportAddress::Period(start));
    }
    text.parse()
        .map(ReportAddress::Id)
        .ok()
        .with_context(|| format!("--report must be a report id (fsr_…) or a period (YYYY-MM), got `{text}`"))
}
