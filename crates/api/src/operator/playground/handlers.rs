//! `GET` and `PUT /api/operator/playground`.

use actix_web::{HttpResponse, web};
use opinion_access::{PlaygroundConsole, RouteId};
use opinion_app::error::AppError;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::playground::dto::{PlaygroundBody, PutPlaygroundBody};
use crate::state::ApiState;

/// Reads what the docs' playground console may send for the operator in production.
#[utoipa::path(
    get,
    path = RouteId::PlaygroundGet.spec().path,
    responses(
        (status = 200, description = "the setting; `read_only` and a null time before the first `PUT`", body = PlaygroundBody),
    ),
)]
pub async fn get(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let setting = state.access.playground_setting(&caller.0).await?;
    Ok(HttpResponse::Ok().json(PlaygroundBody::from(setting)))
}

/// Chooses what the docs' playground console may send for the operator in production.
#[utoipa::path(
    put,
    path = RouteId::PlaygroundPut.spec().path,
    request_body = PutPlaygroundBody,
    responses(
        (status = 200, description = "the setting as stored", body = PlaygroundBody),
        InvalidRequest,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn put(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<PutPlaygroundBody>,
) -> Result<HttpResponse, ApiError> {
    let console: PlaygroundConsole = body
        .into_inner()
        .console
        .parse()
        .map_err(|_| AppError::invalid("console", "must be `read_only` or `read_write`"))?;
    let setting = state.access.set_playground_console(&caller.0, console).await?;
    Ok(HttpResponse::Ok().json(PlaygroundBody::from(setting)))
}
