//! `opinion admin flight correct` and `opinion admin flight payment …`: what platform
//! staff record against an operator's finalized settlement report. A report is named by
//! its id or its period, always with its operator, so a mistyped id cannot reach another
//! operator's report.

use anyhow::Context;
use opinion_app::flight::office::model::{Correction, Payment};
use opinion_app::flight::office::{CorrectionRequest, FlightOffice, PERIOD, PaymentRequest, ReportAddress};
use opinion_core::OperatorId;
use serde_json::{Value, json};

use crate::admin::rfc3339;
use crate::cli::{CorrectArgs, PaymentArgs, PaymentCommand};

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

/// Runs one payment command and prints the payment with what remains due after it; a
/// refused payment is an error naming its code.
pub async fn payment(office: &FlightOffice, command: PaymentCommand) -> anyhow::Result<Value> {
    let PaymentCommand::Record(args) = command;
    record(office, args).await
}

async fn record(office: &FlightOffice, args: PaymentArgs) -> anyhow::Result<Value> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let paid_on = time::Date::parse(&args.paid_on, format)
        .with_context(|| format!("--paid-on must be a date written YYYY-MM-DD, got `{}`", args.paid_on))?;
    let request = PaymentRequest {
        operator: operator_id(&args.operator)?,
        report: report_address(&args.report)?,
        amount: args.amount,
        direction: args.direction,
        paid_on,
        reference: args.reference,
        by: args.by,
    };
    match office.record_payment(request).await {
        Ok(payment) => Ok(payment_json(&payment)),
        Err(opinion_app::error::AppError::Conflict { code, detail }) => anyhow::bail!("{}: {detail}", code.as_str()),
        Err(error) => Err(error.into()),
    }
}

fn payment_json(payment: &Payment) -> Value {
    json!({
        "paymentId": payment.id,
        "reportId": payment.report_id,
        "amount": payment.amount.to_string(),
        "direction": payment.direction.as_str(),
        "paidOn": payment.paid_on.to_string(),
        "reference": payment.reference,
        "recordedBy": payment.recorded_by,
        "recordedAt": rfc3339(payment.recorded_at),
        "remainingDue": payment.remaining_due.to_string(),
        "remainingDirection": payment.remaining_direction.as_str(),
    })
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
