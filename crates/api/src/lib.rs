//! The operator HTTP API (actix-web): every route of the contract mounted from the
//! access domain's route table, guarded by one mechanism, answering RFC 9457 problems.

mod auth;
mod dto;
mod error;
mod extract;
mod openapi;
mod player_auth;
mod problem;
mod request_id;
mod router;
mod routes;
mod state;
mod views;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{App, HttpResponse, web};

pub use auth::SESSION_COOKIE;
pub use error::ApiError;
pub use openapi::document as openapi_document;
pub use problem::{PROBLEM_JSON, Problem};
pub use request_id::REQUEST_ID_HEADER;
pub use state::ApiState;

/// The whole HTTP application, ready for `HttpServer::new`.
pub fn app(
    state: ApiState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(state))
        .app_data(extract::json_config())
        .app_data(extract::query_config())
        .wrap(from_fn(request_id::middleware))
        .route("/healthz", web::get().to(routes::operational::healthz))
        .route("/readyz", web::get().to(routes::operational::readyz))
        .route(
            routes::users::PORTFOLIO_VIEW_PATH,
            web::get().to(routes::views::portfolio),
        )
        .configure(router::mount)
        .configure(routes::player::mount)
        .default_service(web::to(route_not_found))
}

async fn route_not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::RouteNotFound)
}
