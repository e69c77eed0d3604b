//! `opinion admin review …`: platform staff list the wallet operations in manual review,
//! show one with its steps and its trade or redemption, and record what the operator's
//! wallet log shows. Operations print as operators read them (balance operations); a
//! flight operation names its flight and ticket instead of a market, and `show` adds its
//! ticket. Each operation says why it is in review (`reviewReason`), the refusal code of
//! a refused credit (`refusalCode`), and what is owed to the player when it is a credit
//! the player is due (`amountOwed`). `resolve` hands each operation to the product that
//! owns it, which settles its trade, redemption or ticket in the same step.

use anyhow::Context;
use opinion_api::{BalanceOperationBody, RedemptionBody, StepBody, TicketBody, TradeBody};
use opinion_app::flight::FlightGame;
use opinion_app::model::WalletOperationRecord;
use opinion_app::opinion::reads::BalanceOperation;
use opinion_app::opinion::settlement::MarketSettlement;
use opinion_app::wallet::{ReviewDecision, ReviewFinding};
use opinion_core::WalletOperationId;
use opinion_wallet::{OperationState, Product, ReviewReason};
use serde_json::{Value, json};

use crate::cli::ReviewCommand;

/// Runs one review command and returns what to print.
pub(crate) async fn run(
    settlement: &MarketSettlement,
    flight: &FlightGame,
    command: ReviewCommand,
) -> anyhow::Result<Value> {
    match command {
        ReviewCommand::List { operator } => {
            let operator = operator
                .map(|text| text.parse().context("--operator must be an operator id (op_…)"))
                .transpose()?;
            let operations = settlement.operations_in_review(operator).await?;
            Ok(json!({"data": operations.into_iter().map(operation_json).collect::<Vec<_>>()}))
        }
        ReviewCommand::Show { operation } => {
            let id = operation_id(&operation)?;
            let case = settlement.review_case(id).await?;
            let ticket = match case.operation.flow.product() {
                Product::Flight => Some(TicketBody::from(flight.ticket_under_review(id).await?)),
                Product::Opinion => None,
            };
            let mut shown = json!({
                "operation": operation_json(case.operation),
                "steps": case.steps.into_iter().map(StepBody::from).collect::<Vec<_>>(),
                "trade": case.trade.map(|open| TradeBody::from(open.trade)),
                "redemption": case.redemption.map(RedemptionBody::from),
            });
            if let Some(ticket) = ticket {
                shown["ticket"] = json!(ticket);
            }
            Ok(shown)
        }
        ReviewCommand::Resolve {
            operation,
            applied,
            remote_reference,
            not_applied: _,
            by,
            note,
        } => {
            let finding = match (applied, remote_reference) {
                (true, Some(remote_reference)) => ReviewFinding::Applied { remote_reference },
                (true, None) => anyhow::bail!("--applied needs the wallet's --remote-reference"),
                (false, _) => ReviewFinding::NotApplied,
            };
            let decision = ReviewDecision {
                operation_id: operation_id(&operation)?,
                finding,
                resolved_by: by,
                note,
            };
            let case = settlement.review_case(decision.operation_id).await?;
            match case.operation.flow.product() {
                Product::Opinion => {
                    let resolved = settlement.resolve_review(decision).await?;
                    Ok(json!({"operation": operation_json(resolved)}))
                }
                Product::Flight => {
                    let resolved = flight.resolve_review(decision).await?;
                    Ok(json!({
                        "operation": operation_json(resolved.operation),
                        "ticket": TicketBody::from(resolved.ticket),
                    }))
                }
            }
        }
    }
}

fn operation_id(text: &str) -> anyhow::Result<WalletOperationId> {
    text.parse()
        .context("--operation must be a wallet operation id (wop_…)")
}

/// An operation as operators read it, with its operator (staff see every operator's);
/// a flight operation with its flight and ticket in place of the market; why it went to
/// review and, for a credit the player is due that is not known to be paid, the amount
/// owed.
fn operation_json(operation: WalletOperationRecord) -> Value {
    let operator = operation.operator_id;
    let product = operation.flow.product();
    let (flight, ticket) = (operation.flight_id, operation.ticket_id);
    let reason = operation.review_reason;
    let refusal = (reason == Some(ReviewReason::RefusedCredit) && operation.state == OperationState::ManualReview)
        .then(|| operation.detail.clone())
        .flatten();
    let owed = (operation.flow.owes_player() && operation.state.money_moved() != Some(true))
        .then(|| operation.amount.to_string());
    let mut body = json!(BalanceOperationBody::from(BalanceOperation { operation, steps: None }));
    body["operatorId"] = json!(operator);
    body["reviewReason"] = json!(reason.map(ReviewReason::as_str));
    body["refusalCode"] = json!(refusal);
    body["amountOwed"] = json!(owed);
    if let (Product::Flight, Some(fields)) = (product, body.as_object_mut()) {
        fields.remove("marketId");
        fields.insert("flightId".into(), json!(flight));
        fields.insert("ticketId".into(), json!(ticket));
    }
    body
}
