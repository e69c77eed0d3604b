//! Where the service runs without a simulator (production), every simulator route
//! answers 404 `not_available_in_production` before authentication: the simulator does
//! not exist there, for any credential.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{Error, ResponseError, web};

use crate::http::error::ApiError;
use crate::state::ApiState;

/// The prefix of the simulator's operator routes.
pub const SIMULATOR_ROUTES: &str = "/api/operator/simulator/";

/// Answers 404 when the state has no simulator; otherwise passes the request on.
pub async fn gate(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let available = request
        .app_data::<web::Data<ApiState>>()
        .is_some_and(|state| state.simulator.is_some());
    if available {
        Ok(next.call(request).await?.map_into_boxed_body())
    } else {
        let response = ApiError::NotAvailableInProduction.error_response();
        Ok(request.into_response(response))
    }
}
