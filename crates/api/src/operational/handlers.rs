//! Liveness, readiness and the OpenAPI document.

use actix_web::{HttpResponse, web};
use serde_json::json;
use utoipa::openapi::OpenApi;

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

/// The OpenAPI 3.1 document of every route, as the application registered it.
pub async fn openapi_document(document: web::Data<OpenApi>) -> HttpResponse {
    HttpResponse::Ok().json(document.get_ref())
}
