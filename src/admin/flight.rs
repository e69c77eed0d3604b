//! `opinion admin flight …`: enabling the flight product per operator (every blocker
//! listed at once, warnings beside), its production authorization, its terms versions (the first, scheduled ones,
//! cancelling one, listing them) and finalizing a period's settlement report.

use anyhow::{Context, bail};
use opinion_app::flight::model::TermsRecord;
use opinion_app::flight::office::model::FinalizedReport;
use opinion_app::flight::office::{FinalizeOutcome, FlightOffice};
use opinion_app::flight::{EnableOutcome, FlightGame};
use opinion_core::OperatorId;
use opinion_flight::{EnablementCheck, FinalizationBlocker, Rupiah, SettlementPeriod, ShareBps, Terms, TicketLimits};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::admin::{production_authorization, rfc3339};
use crate::cli::{FlightCommand, TermsArgs, TermsCommand};

/// Runs one flight command and returns what to print; a refused enable is an error whose
/// message lists every blocker.
pub async fn run(flight: &FlightGame, office: &FlightOffice, command: FlightCommand) -> anyhow::Result<Value> {
    match command {
        FlightCommand::Finalize { operator, period } => {
            match office
                .finalize_report(operator_id(&operator)?, month_start(&period)?)
                .await?
            {
                FinalizeOutcome::Finalized(report) => Ok(report_json(&report, false)),
                FinalizeOutcome::AlreadyFinalized(report) => Ok(report_json(&report, true)),
                FinalizeOutcome::Refused(blockers) => {
                    let lines: Vec<String> = blockers.iter().map(blocker_line).collect();
                    bail!("the report was not finalized:\n  - {}", lines.join("\n  - "))
                }
            }
        }
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
                "productionAuthorization": production_authorization::status(flight, operator_id(&operator)?).await?,
            }))
        }
        FlightCommand::Terms { command } => terms(flight, command).await,
        FlightCommand::Correct(args) => crate::admin::settlement::correct(office, args).await,
        FlightCommand::Payment { command } => crate::admin::settlement::payment(office, command).await,
        FlightCommand::AuthorizeProduction {
            operator,
            reference,
            by,
            expires_at,
        } => production_authorization::authorize(flight, operator_id(&operator)?, reference, expires_at, &by).await,
        FlightCommand::RevokeProduction { operator, by } => {
            production_authorization::revoke(flight, operator_id(&operator)?, &by).await
        }
    }
}

async fn terms(flight: &FlightGame, command: TermsCommand) -> anyhow::Result<Value> {
    match command {
        TermsCommand::Set { terms } => {
            let operator = operator_id(&terms.operator)?;
            let record = flight.set_first_terms(operator, terms_of(&terms)?, &terms.by).await?;
            Ok(terms_json(&record))
        }
        TermsCommand::Schedule { terms, effective_from } => {
            let operator = operator_id(&terms.operator)?;
            let effective_from = OffsetDateTime::parse(&effective_from, &Rfc3339)
                .context("--effective-from must be an RFC 3339 instant, e.g. 2027-01-01T00:00:00Z")?;
            let record = flight
                .schedule_terms(operator, terms_of(&terms)?, effective_from, &terms.by)
                .await?;
            Ok(terms_json(&record))
        }
        TermsCommand::Cancel { operator, terms, by } => {
            let id = terms.parse().context("--terms must be a terms version id (ftv_…)")?;
            let record = flight.cancel_terms(operator_id(&operator)?, id, &by).await?;
            Ok(terms_json(&record))
        }
        TermsCommand::List { operator } => {
            let book = flight.terms_book(operator_id(&operator)?).await?;
            Ok(json!({
                "current": book.current.as_ref().map(terms_json),
                "scheduled": book.scheduled.iter().map(terms_json).collect::<Vec<_>>(),
                "history": book.history.iter().map(terms_json).collect::<Vec<_>>(),
            }))
        }
    }
}

fn terms_of(args: &TermsArgs) -> anyhow::Result<Terms> {
    let limits = TicketLimits::new(
        rupiah("--min-stake", args.min_stake)?,
        rupiah("--max-stake", args.max_stake)?,
        rupiah("--max-payout", args.max_payout)?,
        args.tickets_per_flight,
    )?;
    let share = ShareBps::new(args.share_bps)?;
    Ok(Terms::new(
        share,
        limits,
        SettlementPeriod::CalendarMonth,
        args.payment_due_days,
    )?)
}

/// A terms version as staff read it (who created and cancelled it included).
fn terms_json(record: &TermsRecord) -> Value {
    let terms = &record.version.terms;
    let limits = terms.limits();
    json!({
        "termsId": record.version.id,
        "effectiveFrom": rfc3339(record.version.effective_from),
        "shareBps": terms.share_bps().get(),
        "minStake": limits.min_stake().to_string(),
        "maxStake": limits.max_stake().to_string(),
        "maxPayout": limits.max_payout().to_string(),
        "ticketsPerFlight": limits.tickets_per_flight(),
        "paymentDueDays": terms.payment_due_days(),
        "createdAt": rfc3339(record.created_at),
        "createdBy": record.created_by,
        "cancelledAt": record.cancelled.as_ref().map(|c| rfc3339(c.at)),
        "cancelledBy": record.cancelled.as_ref().map(|c| c.by.clone()),
    })
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

/// `2026-11` as the first instant of that month, UTC.
fn month_start(period: &str) -> anyhow::Result<OffsetDateTime> {
    let parsed = period
        .split_once('-')
        .and_then(|(year, month)| Some((year.parse::<i32>().ok()?, month.parse::<u8>().ok()?)))
        .and_then(|(year, month)| {
            let month = time::Month::try_from(month).ok()?;
            time::Date::from_calendar_date(year, month, 1).ok()
        });
    match parsed {
        Some(date) if period.len() == 7 => Ok(date.midnight().assume_utc()),
        _ => bail!("--period must be a calendar month written YYYY-MM, got `{period}`"),
    }
}

/// A blocker as a line of the refusal: its code and what it counts.
fn blocker_line(blocker: &FinalizationBlocker) -> String {
    match blocker {
        FinalizationBlocker::PeriodOpen { ends_at } => format!("period_open: the period ends at {}", rfc3339(*ends_at)),
        FinalizationBlocker::TicketsUnsettled { count } => {
            format!("tickets_unsettled: {count} tickets are pending or flying")
        }
        FinalizationBlocker::TicketsInReview { count } => {
            format!("tickets_in_review: {count} tickets wait for manual review")
        }
    }
}

/// What `finalize` prints: the report's figures and its signed statement.
fn report_json(report: &FinalizedReport, already: bool) -> Value {
    let totals = &report.totals;
    let (amount_due, direction) = totals.amount_due();
    json!({
        "reportId": report.id,
        "alreadyFinalized": already,
        "periodStart": rfc3339(report.period_start),
        "periodEnd": rfc3339(report.period_end),
        "ticketCount": totals.ticket_count,
        "ggr": totals.ggr.to_string(),
        "share": totals.share.to_string(),
        "amountDue": amount_due.get().to_string(),
        "direction": direction.as_str(),
        "dueDate": report.due_date.to_string(),
        "statementHash": report.statement.hash.to_string(),
        "statement": report.statement.signed,
    })
}
