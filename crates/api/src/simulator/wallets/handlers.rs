//! `/api/operator/simulator/wallets/{externalUserId}`: a simulated wallet's balance and
//! log (development and staging only; production answers 404, see `simulator_gate`).

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, SimulatorNotFound, UnsupportedMediaType};
use crate::shared::list::ListBody;
use crate::shared::minor_units::minor_units;
use crate::shared::page_query::PageQuery;
use crate::simulator::available::simulator;
use crate::simulator::wallets::dto::{PutSimulatedWalletBody, SimulatedWalletBody, WalletLogEntryBody};
use crate::state::ApiState;

/// A simulated wallet: its balance and a page of its log.
#[utoipa::path(
    get,
    path = RouteId::SimulatorWalletGet.spec().path,
    params(("externalUserId" = String, Path, description = "the simulated user's id at the operator"), PageQuery),
    responses(
        (status = 200, description = "the wallet with one page of its log", body = SimulatedWalletBody),
        InvalidRequest,
        SimulatorNotFound,
    ),
)]
pub async fn get(
    state: web::Data<ApiState>,
    caller: Caller,
    external_user_id: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let simulator = simulator(&state)?;
    let user = simulator.wallet(&caller.0, &external_user_id).await?;
    let log = simulator
        .wallet_log(&caller.0, &external_user_id, query.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(wallet_body(user, log)))
}

/// Sets a simulated wallet's balance.
#[utoipa::path(
    put,
    path = RouteId::SimulatorWalletPut.spec().path,
    params(("externalUserId" = String, Path, description = "the simulated user's id at the operator")),
    request_body = PutSimulatedWalletBody,
    responses(
        (status = 200, description = "the wallet with the first page of its log", body = SimulatedWalletBody),
        InvalidRequest,
        SimulatorNotFound,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn put(
    state: web::Data<ApiState>,
    caller: Caller,
    external_user_id: web::Path<String>,
    body: Json<PutSimulatedWalletBody>,
) -> Result<HttpResponse, ApiError> {
    let balance = minor_units("balance", &body.balance)?;
    let simulator = simulator(&state)?;
    let user = simulator
        .set_wallet_balance(&caller.0, &external_user_id, balance)
        .await?;
    let log = simulator
        .wallet_log(&caller.0, &external_user_id, opinion_core::PageRequest::default())
        .await?;
    Ok(HttpResponse::Ok().json(wallet_body(user, log)))
}

fn wallet_body(
    user: opinion_app::model::SimulatedUser,
    log: opinion_core::Page<opinion_app::model::WalletLogEntry, opinion_core::SimulatorLogKind>,
) -> SimulatedWalletBody {
    let list = ListBody::from_page(log, WalletLogEntryBody::from);
    SimulatedWalletBody {
        external_user_id: user.external_user_id,
        balance: user.balance.to_string(),
        currency: user.currency.as_str().to_owned(),
        disabled: user.disabled,
        log: list.data,
        next_cursor: list.next_cursor,
        has_more: list.has_more,
    }
}
