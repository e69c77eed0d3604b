//! The operator HTTP API (actix-web): every route of the contract mounted from the
//! access domain's route table, guarded by one mechanism, answering RFC 9457 problems.

mod dashboard;
mod docs_site;
mod http;
mod operational;
mod operator;
pub mod player;
mod public;
mod routing;
mod shared;
mod simulator;
mod state;
mod views;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::from_fn;
use actix_web::{App, HttpResponse, web};
use opinion_app::players::{FLIGHT_PLAY_PATH, OPINION_PLAY_PATH};

pub use dashboard::DASHBOARD_PATH;
pub use docs_site::DOCS_PATH;
pub use http::auth::SESSION_COOKIE;
pub use http::client::TrustedProxies;
pub use http::error::ApiError;
pub use http::listen::bind_listener;
pub use http::problem::{PROBLEM_JSON, Problem};
pub use http::rate_limit::OperatorRateLimit;
pub use http::request_id::REQUEST_ID_HEADER;
pub use operational::metrics::MetricsAccess;
pub use operator::balance_operations::dto::{BalanceOperationBody, StepBody};
pub use operator::flight::dto::TicketBody;
pub use operator::payouts::dto::{RedemptionBody, ResolutionBody};
pub use operator::trades::dto::TradeBody;
pub use player::live_listener::LiveFeedListener;
pub use routing::openapi::document as openapi_document;
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
        .app_data(web::Data::new(operational::handlers::OpenApiJson(
            routing::openapi::served_json,
        )))
        .app_data(http::extract::query_config())
        .app_data(http::extract::payload_config())
        .wrap(from_fn(http::metrics::middleware))
        .wrap(from_fn(http::request_id::middleware))
        .service(get("/healthz", web::route().to(operational::handlers::healthz)))
        .service(get("/metrics", web::route().to(operational::metrics::metrics)))
        .service(get("/readyz", web::route().to(operational::handlers::readyz)))
        .service(get(OPINION_PLAY_PATH, web::route().to(views::play_page)))
        .service(get(FLIGHT_PLAY_PATH, web::route().to(views::flight_page)))
        .service(get(
            "/play/assets/{name}",
            web::route().to(views::play_assets::play_asset),
        ))
        .service(get(
            views::handlers::PORTFOLIO_VIEW_PATH,
            web::route().to(views::handlers::portfolio),
        ))
        .configure(docs_site::mount)
        .configure(dashboard::mount)
        .configure(routing::router::mount)
        .configure(player::handlers::mount)
        .configure(simulator::simulated_wallet::handlers::mount)
        .default_service(web::to(route_not_found))
}

/// A page or probe served to `GET` only.
fn get(path: &str, route: actix_web::Route) -> actix_web::Resource {
    routing::resource::serving(path, vec![(Method::GET, route)])
}

async fn route_not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::RouteNotFound)
}
