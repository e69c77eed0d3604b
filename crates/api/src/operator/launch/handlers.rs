//! `POST /api/operator/launch`: create or update the player and hand out a launch.

use actix_web::{HttpResponse, web};
use opinion_app::players::LaunchRequest;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::operator::launch::dto::{LaunchBody, LaunchedBody};
use crate::state::ApiState;

/// Launches a player into the hosted app.
pub async fn launch(
    state: web::Data<ApiState>,
    caller: Caller,
    body: web::Json<LaunchBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = LaunchRequest {
        external_user_id: body.external_user_id,
        display_name: body.display_name,
        language: body.language,
        return_url: body.return_url,
        product: body.product,
    };
    let launched = state.players.launch(&caller.0, request).await?;
    Ok(HttpResponse::Created().json(LaunchedBody::from(launched)))
}
