//! `GET /metrics`: this instance's metrics in the Prometheus text format, with the
//! platform's figures read at the scrape (docs/operations.md).

use actix_web::{HttpRequest, HttpResponse, web};
use opinion_app::access::AuthFailure;
use opinion_app::error::AppError;
use opinion_metrics::TEXT_FORMAT;
use sha2::{Digest, Sha256};

use crate::http::auth::bearer_credential;
use crate::http::error::ApiError;
use crate::state::ApiState;

/// Who may scrape `/metrics`.
#[derive(Clone)]
pub enum MetricsAccess {
    /// Anyone who reaches the service (development and staging without a token).
    Open,
    /// Only a scraper sending `Authorization: Bearer <token>`.
    Token(String),
    /// Nobody: production without a token answers 404, as if there were no such route.
    NotServed,
}

impl MetricsAccess {
    /// Lets the request through, or says why not.
    fn admit(&self, request: &HttpRequest) -> Result<(), ApiError> {
        match self {
            MetricsAccess::Open => Ok(()),
            MetricsAccess::NotServed => Err(ApiError::RouteNotFound),
            MetricsAccess::Token(expected) => {
                let presented = bearer_credential(request)?.ok_or(AppError::Unauthenticated(AuthFailure::Missing))?;
                // Comparing digests keeps the comparison's time from telling how much of
                // the token a guess got right.
                if Sha256::digest(presented.as_bytes()) == Sha256::digest(expected.as_bytes()) {
                    Ok(())
                } else {
                    Err(AppError::Unauthenticated(AuthFailure::WrongMetricsToken).into())
                }
            }
        }
    }
}

/// The scrape.
pub async fn metrics(request: HttpRequest, state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    state.metrics_access.admit(&request)?;
    let readings = state.operations.readings().await?;
    let text = state
        .metrics
        .render(&readings)
        .map_err(|error| AppError::Internal(error.to_string()))?;
    Ok(HttpResponse::Ok().content_type(TEXT_FORMAT).body(text))
}
