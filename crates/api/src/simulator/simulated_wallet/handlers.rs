//! The simulated wallet adapter, served outside `/api/operator` where the platform's
//! wallet client calls it: `POST /simulator-wallet/{operatorId}/v1/mutations` and
//! `…/v1/balance`. No API key: like any operator's wallet, it trusts only the
//! Standard Webhooks signature made with the operator's wallet adapter secret.

use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::body::{BodySize, MessageBody};
use actix_web::http::{Method, StatusCode};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use opinion_app::simulator::{SIMULATOR_WALLET_PREFIX, SimulatedWalletCall, SimulatedWalletReply};
use opinion_wallet::{BALANCE_PATH, MUTATIONS_PATH, WalletAnswer};

use crate::http::error::ApiError;
use crate::http::extract::read_body;
use crate::routing::resource::serving;
use crate::simulator::available::simulator;
use crate::state::ApiState;

/// Mounts the simulated wallet's two routes.
pub fn mount(config: &mut web::ServiceConfig) {
    config
        .service(serving(
            &format!("{SIMULATOR_WALLET_PREFIX}/{{operatorId}}{MUTATIONS_PATH}"),
            vec![(Method::POST, web::route().to(mutation))],
        ))
        .service(serving(
            &format!("{SIMULATOR_WALLET_PREFIX}/{{operatorId}}{BALANCE_PATH}"),
            vec![(Method::POST, web::route().to(balance))],
        ));
}

fn call(request: &HttpRequest, operator: &str, body: Bytes) -> Result<SimulatedWalletCall, ApiError> {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    Ok(SimulatedWalletCall {
        operator_id: crate::http::extract::path_id(operator)?,
        webhook_id: header("webhook-id").unwrap_or_default(),
        webhook_timestamp: header("webhook-timestamp").unwrap_or_default(),
        webhook_signature: header("webhook-signature").unwrap_or_default(),
        idempotency_key: header(opinion_wallet::IDEMPOTENCY_KEY_HEADER),
        body: body.to_vec(),
    })
}

fn answer(answer: &WalletAnswer) -> HttpResponse {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    HttpResponse::build(status)
        .content_type("application/json")
        .body(answer.body_bytes().unwrap_or_default())
}

/// `POST …/v1/mutations`.
async fn mutation(
    state: web::Data<ApiState>,
    request: HttpRequest,
    operator: web::Path<String>,
    body: Result<Bytes, actix_web::Error>,
) -> Result<HttpResponse, ApiError> {
    let simulator = simulator(&state)?;
    let call = call(&request, &operator, read_body(body)?)?;
    Ok(match simulator.wallet_mutation(call).await? {
        SimulatedWalletReply::Answer(reply) => answer(&reply),
        SimulatedWalletReply::Drop => HttpResponse::Ok().content_type("application/json").body(CutShort),
    })
}

/// `POST …/v1/balance`.
async fn balance(
    state: web::Data<ApiState>,
    request: HttpRequest,
    operator: web::Path<String>,
    body: Result<Bytes, actix_web::Error>,
) -> Result<HttpResponse, ApiError> {
    let simulator = simulator(&state)?;
    let call = call(&request, &operator, read_body(body)?)?;
    Ok(answer(&simulator.wallet_balance(call).await?))
}

/// A body that fails before its first byte, so the connection is closed without a
/// whole answer: how the simulated wallet drops a connection.
struct CutShort;

impl MessageBody for CutShort {
    type Error = std::io::Error;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Poll::Ready(Some(Err(std::io::Error::other(
            "the simulated wallet dropped the connection",
        ))))
    }
}
