//! `/api/operator/wallet-adapter`: read and set the operator's wallet adapter.

use actix_web::{HttpResponse, web};
use opinion_app::wallet::WalletAdapterChange;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::operator::wallet_adapter::dto::{PutWalletAdapterBody, SavedWalletAdapterBody, WalletAdapterBody};
use crate::state::ApiState;

/// The operator's configuration, without its secret; 404 until it is set.
pub async fn get(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let view = state.wallet_adapters.wallet_adapter(&caller.0).await?;
    Ok(HttpResponse::Ok().json(WalletAdapterBody::from(view)))
}

/// Sets the configuration: 201 with the new secret the first time, 200 after (with a new
/// secret only when rotating).
pub async fn put(
    state: web::Data<ApiState>,
    caller: Caller,
    body: web::Json<PutWalletAdapterBody>,
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
