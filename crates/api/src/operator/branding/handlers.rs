//! `GET` and `PUT /api/operator/branding`.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::players::BrandingChange;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::branding::dto::{BrandingBody, PutBrandingBody};
use crate::state::ApiState;

/// Reads the operator's brand in the hosted app.
#[utoipa::path(
    get,
    path = RouteId::BrandingGet.spec().path,
    responses(
        (status = 200, description = "the brand; the platform's own (and `updatedAt` null) before the first `PUT`", body = BrandingBody),
    ),
)]
pub async fn get(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let branding = state.players.branding(&caller.0).await?;
    Ok(HttpResponse::Ok().json(BrandingBody::from(branding)))
}

/// Replaces the operator's brand in the hosted app, whole.
#[utoipa::path(
    put,
    path = RouteId::BrandingPut.spec().path,
    request_body = PutBrandingBody,
    responses(
        (status = 200, description = "the brand as stored (colours in lower case)", body = BrandingBody),
        InvalidRequest,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn put(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<PutBrandingBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let change = BrandingChange {
        name: body.name,
        logo_url: body.logo_url,
        primary_color: body.primary_color,
        accent_color: body.accent_color,
        default_language: body.default_language,
    };
    let branding = state.players.set_branding(&caller.0, change).await?;
    Ok(HttpResponse::Ok().json(BrandingBody::from(branding)))
}
