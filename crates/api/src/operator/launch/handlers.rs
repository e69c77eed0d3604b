//! `POST /api/operator/launch`: create or update the player and hand out a launch, on the
//! service's own address or on one of the operator's launch hosts.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::players::LaunchRequest;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::launch::dto::{LaunchBody, LaunchedBody};
use crate::state::ApiState;

/// Launches a player into the hosted app.
#[utoipa::path(
    post,
    path = RouteId::Launch.spec().path,
    request_body = LaunchBody,
    responses(
        (status = 201, description = "the launch: open `launchUrl` for the player", body = LaunchedBody),
        InvalidRequest,
        (status = 409, description = "`product_not_enabled`: the asked product is not enabled for this operator", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn launch(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<LaunchBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = LaunchRequest {
        external_user_id: body.external_user_id,
        display_name: body.display_name,
        language: body.language,
        return_url: body.return_url,
        product: body.product,
        host: body.host,
        locale: body.locale,
        metadata: body.metadata,
    };
    let launched = state.players.launch(&caller.0, request).await?;
    Ok(HttpResponse::Created().json(LaunchedBody::from(launched)))
}
