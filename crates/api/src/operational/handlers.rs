//! Liveness, readiness and the OpenAPI document.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use serde_json::json;

use opinion_app::error::AppError;

use crate::http::error::ApiError;
use crate::state::ApiState;

/// Liveness: the process serves HTTP.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "ok" }))
}

/// Readiness: the database answers.
pub async fn readyz(state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    state
        .access
        .ready()
        .await
        .map_err(|e| ApiError::NotReady(e.to_string()))?;
    Ok(HttpResponse::Ok().json(json!({ "status": "ready" })))
}

/// Where the OpenAPI document's JSON comes from, registered with the application so that
/// this handler does not import the document (which imports the router, which imports
/// the handlers).
pub struct OpenApiJson(pub fn() -> Result<web::Bytes, String>);

/// The OpenAPI 3.1 document of every route, as the application registered it.
#[utoipa::path(
    get,
    path = RouteId::OpenApiDocument.spec().path,
    responses(
        (status = 200, description = "this document", body = serde_json::Value),
    ),
)]
pub async fn openapi_document(source: web::Data<OpenApiJson>) -> Result<HttpResponse, ApiError> {
    let json =
        (source.0)().map_err(|problem| AppError::Internal(format!("serialising the OpenAPI document: {problem}")))?;
    Ok(HttpResponse::Ok().content_type(ContentType::json()).body(json))
}
