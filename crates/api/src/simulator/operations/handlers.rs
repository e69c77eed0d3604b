//! `POST /api/operator/simulator/users/{id}/operations` and
//! `POST /api/operator/simulator/operations`: the wire's words turned into the
//! simulator's operations and scenarios, each answered with its step-by-step report.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_access::{Requirement, Scope};
use opinion_app::error::AppError;
use opinion_app::simulator::{Scenario, SimulatedTicketOrder, UserOperation};
use opinion_core::{MarketId, SimulatorUserId};
use opinion_flight::{Multiplier, Rupiah};
use opinion_market::{OrderKind, Outcome, Resolution};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::{Json, path_id};
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, SimulatorNotFound, UnsupportedMediaType};
use crate::shared::minor_units::minor_units;
use crate::simulator::available::simulator;
use crate::simulator::operations::dto::{OperationReportBody, ScenarioBody, UserOperationBody};
use crate::simulator::users::dto::FaultBody;
use crate::state::ApiState;

fn required<'a>(field: &'static str, value: Option<&'a str>) -> Result<&'a str, ApiError> {
    value.ok_or_else(|| AppError::invalid(field, "is required for this operation").into())
}

fn market(value: Option<&str>) -> Result<MarketId, ApiError> {
    required("marketId", value)?
        .parse()
        .map_err(|e| AppError::invalid("marketId", e).into())
}

fn outcome(value: Option<&str>) -> Result<Outcome, ApiError> {
    required("outcome", value)?
        .parse()
        .map_err(|_| AppError::invalid("outcome", "must be `yes` or `no`").into())
}

fn stake(value: Option<&str>) -> Result<Rupiah, ApiError> {
    required("stake", value)?
        .parse()
        .map_err(|_| AppError::invalid("stake", "must be whole rupiah as an integer string, e.g. \"10000\"").into())
}

fn multiplier(field: &'static str, value: &str) -> Result<Multiplier, ApiError> {
    value
        .parse()
        .map_err(|_| AppError::invalid(field, "must be a multiplier with two decimals, e.g. \"2.00\"").into())
}

/// The fields a user operation takes besides `faults`, by wire name (also read by the
/// dashboard's operation form, which sends only these).
pub(crate) fn operation_fields(operation: &str) -> &'static [&'static str] {
    match operation {
        "buy" => &["marketId", "outcome", "shares", "amount"],
        "sell" => &["marketId", "outcome", "shares"],
        "buy_ticket" => &["stake", "autoCashOut", "clientTicketId"],
        "cash_out" => &["ticketId"],
        "play_flight" => &["stake", "cashOutAt"],
        _ => &[],
    }
}

/// The fields a scenario takes, by wire name (also read by the dashboard's scenario
/// form, which sends only these).
pub(crate) fn scenario_fields(scenario: &str) -> &'static [&'static str] {
    match scenario {
        "connect_wallet" => &["timeoutMs"],
        "create_market" => &["question", "closeInMinutes", "liquidity", "feeBps"],
        "trade_batch" => &["marketId", "outcome", "shares", "users"],
        "resolve_market" => &["marketId", "resolution"],
        _ => &[],
    }
}

/// Refuses the first given field that `what` does not take, naming both.
fn only_fields(given: &[&'static str], takes: &[&str], what: &str) -> Result<(), ApiError> {
    match given.iter().find(|field| !takes.contains(field)) {
        Some(field) => Err(AppError::invalid(field, format!("does not apply to `{what}`")).into()),
        None => Ok(()),
    }
}

/// The faults a request asks the simulated wallet to commit (also read by the dashboard).
pub(crate) fn faults(bodies: Vec<FaultBody>) -> Result<Vec<opinion_app::simulator::FaultRequest>, ApiError> {
    bodies.into_iter().map(FaultBody::into_fault).collect()
}

/// A user operation from its wire words (also read by the dashboard's operation form).
pub(crate) fn user_operation(body: &UserOperationBody) -> Result<UserOperation, ApiError> {
    let operation = match body.operation.as_str() {
        "launch" => UserOperation::Launch,
        "inject_faults" => UserOperation::InjectFaults,
        "clear_faults" => UserOperation::ClearFaults,
        "buy" => {
            let (kind, value) = match (body.shares.as_deref(), body.amount.as_deref()) {
                (Some(shares), None) => (OrderKind::Shares, minor_units("shares", shares)?),
                (None, Some(amount)) => (OrderKind::Amount, minor_units("amount", amount)?),
                _ => return Err(AppError::invalid("shares", "give either `shares` or `amount`").into()),
            };
            UserOperation::Buy {
                market_id: market(body.market_id.as_deref())?,
                outcome: outcome(body.outcome.as_deref())?,
                kind,
                value,
            }
        }
        "sell" => UserOperation::Sell {
            market_id: market(body.market_id.as_deref())?,
            outcome: outcome(body.outcome.as_deref())?,
            shares: minor_units("shares", required("shares", body.shares.as_deref())?)?,
        },
        "launch_flight" => UserOperation::LaunchFlight,
        "buy_ticket" => UserOperation::BuyTicket(SimulatedTicketOrder {
            stake: stake(body.stake.as_deref())?,
            auto_cash_out: body
                .auto_cash_out
                .as_deref()
                .map(|text| multiplier("autoCashOut", text))
                .transpose()?,
            client_ticket_id: body.client_ticket_id.clone(),
        }),
        "cash_out" => UserOperation::CashOut {
            ticket_id: required("ticketId", body.ticket_id.as_deref())?
                .parse()
                .map_err(|e| AppError::invalid("ticketId", e))?,
        },
        "play_flight" => UserOperation::PlayFlight {
            stake: stake(body.stake.as_deref())?,
            cash_out_at: multiplier("cashOutAt", required("cashOutAt", body.cash_out_at.as_deref())?)?,
        },
        _ => {
            return Err(AppError::invalid(
                "operation",
                format!("must be one of {}", UserOperation::NAMES.join(", ")),
            )
            .into());
        }
    };
    only_fields(&body.given_fields(), operation_fields(&body.operation), &body.operation)?;
    Ok(operation)
}

/// A scenario from its wire words (also read by the dashboard's scenario form).
pub(crate) fn scenario(body: &ScenarioBody) -> Result<Scenario, ApiError> {
    let scenario = match body.scenario.as_str() {
        "connect_wallet" => Scenario::ConnectWallet {
            timeout_ms: body.timeout_ms,
        },
        "create_market" => Scenario::CreateMarket {
            question: body
                .question
                .clone()
                .unwrap_or_else(|| "Will the staging integration pass?".to_owned()),
            close_in_minutes: body.close_in_minutes.unwrap_or(60),
            liquidity: body
                .liquidity
                .as_deref()
                .map(|text| minor_units("liquidity", text))
                .transpose()?
                .unwrap_or(100_000),
            fee_bps: body.fee_bps.unwrap_or(0),
        },
        "trade_batch" => Scenario::TradeBatch {
            market_id: market(body.market_id.as_deref())?,
            outcome: outcome(body.outcome.as_deref())?,
            shares: minor_units("shares", required("shares", body.shares.as_deref())?)?,
            users: body
                .users
                .iter()
                .map(|id| {
                    id.parse::<SimulatorUserId>()
                        .map_err(|e| AppError::invalid("users", e).into())
                })
                .collect::<Result<_, ApiError>>()?,
        },
        "resolve_market" => Scenario::ResolveMarket {
            market_id: market(body.market_id.as_deref())?,
            resolution: required("resolution", body.resolution.as_deref())?
                .parse::<Resolution>()
                .map_err(|_| AppError::invalid("resolution", "must be `yes`, `no` or `void`"))?,
        },
        _ => {
            return Err(AppError::invalid("scenario", format!("must be one of {}", Scenario::NAMES.join(", "))).into());
        }
    };
    only_fields(&body.given_fields(), scenario_fields(&body.scenario), &body.scenario)?;
    Ok(scenario)
}

/// Runs an operation for one simulated user.
#[utoipa::path(
    post,
    path = RouteId::SimulatorUserOperation.spec().path,
    params(("id" = String, Path, description = "`smu_…`")),
    request_body = UserOperationBody,
    responses(
        (status = 200, description = "the report; a step that failed is reported, not refused", body = OperationReportBody),
        InvalidRequest,
        SimulatorNotFound,
        (status = 409, description = "`simulated_user_not_idr`: a flight operation for a simulated user whose wallet is not in IDR", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn user_operation_run(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    body: Json<UserOperationBody>,
) -> Result<HttpResponse, ApiError> {
    let simulator = simulator(&state)?;
    let id = path_id(&id)?;
    let body = body.into_inner();
    let operation = user_operation(&body)?;
    let faults = faults(body.faults)?;
    let report = simulator.run_user_operation(&caller.0, id, operation, faults).await?;
    Ok(HttpResponse::Ok().json(OperationReportBody::from(report)))
}

/// What `connect_wallet` needs beyond the route's own scope.
pub(crate) const CONNECT_WALLET: Requirement = Requirement::all_of(&[Scope::WalletAdapterWrite]);

/// Runs an operator-wide scenario.
#[utoipa::path(
    post,
    path = RouteId::SimulatorOperation.spec().path,
    request_body = ScenarioBody,
    responses(
        (status = 200, description = "the report of every step", body = OperationReportBody),
        InvalidRequest,
        (status = 403, description = "the credential lacks a required scope or is of the wrong kind; `connect_wallet` also needs `wallet_adapter:write`", body = Problem, content_type = PROBLEM_JSON),
        SimulatorNotFound,
        (status = 409, description = "the scenario cannot run as asked: `no_simulated_users`, `not_a_simulator_market` or `market_traded_by_others`", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn scenario_run(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<ScenarioBody>,
) -> Result<HttpResponse, ApiError> {
    let simulator = simulator(&state)?;
    let scenario = scenario(&body)?;
    if matches!(scenario, Scenario::ConnectWallet { .. }) {
        // Connecting the simulated wallet changes the wallet adapter: the credential needs
        // that route's scope too, refused as the router refuses any missing scope.
        CONNECT_WALLET
            .check(caller.0.kind(), &caller.0.grant)
            .map_err(ApiError::Denied)?;
    }
    let report = simulator.run_scenario(&caller.0, scenario).await?;
    Ok(HttpResponse::Ok().json(OperationReportBody::from(report)))
}
