//! Counts and times every request into the instance's metrics, labelled by the route's
//! pattern (`/api/operator/trades/{trade_id}`), never by the path a client sent.

use actix_web::Error;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;

use crate::state::ApiState;

/// Records the request once its response is ready.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let metrics = request
        .app_data::<web::Data<ApiState>>()
        .map(|state| state.metrics.clone());
    let method = request.method().clone();
    let started = std::time::Instant::now();
    let response = next.call(request).await?;
    if let Some(metrics) = metrics {
        let route = response.request().match_pattern();
        metrics.http_request(
            route.as_deref(),
            method.as_str(),
            response.status().as_u16(),
            started.elapsed(),
        );
    }
    Ok(response)
}
