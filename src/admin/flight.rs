//! `opinion admin flight …`: enabling the flight product per operator (every blocker
//! listed at once, warnings beside) and setting its first terms.

use anyhow::{Context, bail};
use opinion_app::flight::{EnableOutcome, FlightGame};
use opinion_core::OperatorId;
use opinion_flight::{EnablementCheck, Rupiah, SettlementPeriod, ShareBps, Terms, TicketLimits};
use serde_json::{Value, json};

use crate::admin::rfc3339;
use crate::cli::FlightCommand;

/// Runs one flight command and returns what to print; a refused enable is an error whose
/// message lists every blocker.
pub async fn run(flight: &FlightGame, command: FlightCommand) -> anyhow::Result<Value> {
    match command {
        FlightCommand::Enable { operator, by } => match flight.enable(operator_id(&operator)?, &by).await? {
            EnableOutcome::Enabled(check) => Ok(json!({ "enabled": true, "warnings": warnings(&check) })),
            EnableOutcome::Refused(check) => {
                let blockers: Vec<String> = check.blockers.iter().map(|b| format!("{}: {b}", b.code())).collect();
                bail!("flight was not enabled:\n  - {}", blockers.join("\n  - "))
            }
        },
        FlightCommand::Disable { operator, by } => {
            flight.disable(operator_id(&operator)?, &by).await?;
            Ok(json!({ "enabled": false }))
        }
        FlightCommand::Status { operator } => {
            let status = flight.enablement_status(operator_id(&operator)?).await?;
            let terms = flight.current_terms(operator_id(&operator)?).await?;
            Ok(json!({
                "enabled": status.enablement.as_ref().is_some_and(|e| e.enabled),
                "changedAt": status.enablement.as_ref().map(|e| rfc3339(e.changed_at)),
                "changedBy": status.enablement.as_ref().map(|e| e.changed_by.clone()),
                "blockers": status.check.blockers.iter().map(|b| json!({"code": b.code(), "detail": b.to_string()})).collect::<Vec<_>>(),
                "warnings": warnings(&status.check),
                "currentTerms": terms.map(|t| json!({
                    "termsId": t.version.id,
                    "effectiveFrom": rfc3339(t.version.effective_from),
                    "shareBps": t.version.terms.share_bps().get(),
                })),
            }))
        }
        FlightCommand::Terms {
            operator,
            share_bps,
            min_stake,
            max_stake,
            max_payout,
            tickets_per_flight,
            payment_due_days,
            by,
        } => {
            let limits = TicketLimits::new(
                rupiah("--min-stake", min_stake)?,
                rupiah("--max-stake", max_stake)?,
                rupiah("--max-payout", max_payout)?,
                tickets_per_flight,
            )?;
            let share = ShareBps::new(share_bps)?;
            let terms = Terms::new(share, limits, SettlementPeriod::CalendarMonth, payment_due_days)?;
            let record = flight.set_first_terms(operator_id(&operator)?, terms, &by).await?;
            Ok(json!({
                "termsId": record.version.id,
                "effectiveFrom": rfc3339(record.version.effective_from),
                "shareBps": share.get(),
            }))
        }
    }
}

fn operator_id(text: &str) -> anyhow::Result<OperatorId> {
    text.parse().context("--operator must be an operator id (op_…)")
}

fn rupiah(flag: &str, value: i64) -> anyhow::Result<Rupiah> {
    Rupiah::new(value).with_context(|| format!("{flag} must be whole rupiah"))
}

fn warnings(check: &EnablementCheck) -> Vec<String> {
    check.warnings.iter().map(ToString::to_string).collect()
}
