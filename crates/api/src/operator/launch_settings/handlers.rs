//! `GET` and `PUT /api/operator/launch-settings`.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::players::LaunchSettingsChange;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::launch_settings::dto::{LaunchSettingsBody, PutLaunchSettingsBody};
use crate::state::ApiState;

/// Reads the operator's launch hosts and frame origins.
#[utoipa::path(
    get,
    path = RouteId::LaunchSettingsGet.spec().path,
    responses(
        (status = 200, description = "the settings; empty lists before the first `PUT`", body = LaunchSettingsBody),
    ),
)]
pub async fn get(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let settings = state.players.launch_settings(&caller.0).await?;
    Ok(HttpResponse::Ok().json(LaunchSettingsBody::from(settings)))
}

/// Replaces the operator's launch hosts and frame origins, both lists whole.
#[utoipa::path(
    put,
    path = RouteId::LaunchSettingsPut.spec().path,
    request_body = PutLaunchSettingsBody,
    responses(
        (status = 200, description = "the settings as stored", body = LaunchSettingsBody),
        InvalidRequest,
        (status = 409, description = "`launch_host_taken`: a host is already another operator's launch host", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn put(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<PutLaunchSettingsBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let change = LaunchSettingsChange {
        hosts: body.hosts,
        frame_origins: body.frame_origins,
    };
    let settings = state.players.set_launch_settings(&caller.0, change).await?;
    Ok(HttpResponse::Ok().json(LaunchSettingsBody::from(settings)))
}
