//! `/api/operator/wallet-adapter`: read and set the operator's wallet adapter.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::wallet::WalletAdapterChange;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::wallet_adapter::dto::{PutWalletAdapterBody, SavedWalletAdapterBody, WalletAdapterBody};
use crate::state::ApiState;

/// The operator's configuration, without its secret; 404 until it is set.
#[utoipa::path(
    get,
    path = RouteId::WalletAdapterGet.spec().path,
    responses(
        (status = 200, description = "the configuration, without its secret", body = WalletAdapterBody),
        (status = 404, description = "`not_found`: no wallet adapter is configured yet", body = Problem, content_type = PROBLEM_JSON),
    ),
)]
pub async fn get(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let view = state.wallet_adapters.wallet_adapter(&caller.0).await?;
    Ok(HttpResponse::Ok().json(WalletAdapterBody::from(view)))
}

/// Sets the configuration: 201 the first time, 200 after.
///
/// The answer carries a signing secret the first time, and after only when rotating.
#[utoipa::path(
    put,
    path = RouteId::WalletAdapterPut.spec().path,
    request_body = PutWalletAdapterBody,
    responses(
        (status = 200, description = "the changed configuration, with a new signing secret when rotating", body = SavedWalletAdapterBody),
        (status = 201, description = "the first configuration, with its signing secret shown this once", body = SavedWalletAdapterBody),
        InvalidRequest,
        (status = 409, description = "`concurrent_change`: another request changed it at the same time; send the change again", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn put(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<PutWalletAdapterBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let change = WalletAdapterChange {
        base_url: body.base_url,
        timeout_ms: body.timeout_ms,
        rotate_secret: body.rotate_secret,
    };
    let saved = state.wallet_adapters.set_wallet_adapter(&caller.0, change).await?;
    let mut response = if saved.created {
        HttpResponse::Created()
    } else {
        HttpResponse::Ok()
    };
    Ok(response.json(SavedWalletAdapterBody::from(saved)))
}
