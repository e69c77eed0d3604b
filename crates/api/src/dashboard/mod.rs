//! The operator dashboard at `/dashboard`: server-rendered pages for an operator's staff,
//! signed in with the staff session the API already has. Every page mirrors an API route
//! and is shown (in the navigation) and served only to a member whose scopes pass that
//! route's requirement in the route table; every page calls the same use cases as the API
//! route it mirrors. Forms post back to the dashboard with the session's form token; pages
//! load only the dashboard's own stylesheet and script.

mod api_keys;
mod assets;
mod balance_operations;
mod chart;
mod confirm;
mod deliveries;
mod error;
mod flight;
mod form;
mod format;
mod layout;
mod listing;
mod markets;
mod nav;
mod overview;
mod page;
mod paging;
mod password;
mod payouts;
mod portfolio_link;
mod scopes;
mod session;
mod sign_in;
mod simulated_user;
mod simulator;
mod staff;
mod trades;
mod users;
mod visibility_mode;
mod wallet;
mod webhooks;

use actix_web::http::Method;
use actix_web::web;

use crate::routing::resource::serving;

/// Where the dashboard starts; `cargo run` prints it.
pub const DASHBOARD_PATH: &str = "/dashboard";

/// Mounts the dashboard's pages, their forms' targets and its assets.
pub fn mount(config: &mut web::ServiceConfig) {
    let get = |path: &str, route: actix_web::Route| serving(path, vec![(Method::GET, route)]);
    let post = |path: &str, route: actix_web::Route| serving(path, vec![(Method::POST, route)]);
    let both = |path: &str, read: actix_web::Route, write: actix_web::Route| {
        serving(path, vec![(Method::GET, read), (Method::POST, write)])
    };
    config
        .service(get("/dashboard/assets/{name}", web::route().to(assets::serve)))
        .service(both(
            "/dashboard/sign-in",
            web::route().to(sign_in::form),
            web::route().to(sign_in::submit),
        ))
        .service(post("/dashboard/sign-out", web::route().to(sign_in::sign_out)))
        .service(get(DASHBOARD_PATH, web::route().to(overview::page)))
        .service(get("/dashboard/users", web::route().to(users::page)))
        .service(get("/dashboard/users/player", web::route().to(users::player)))
        .service(post(portfolio_link::PATH, web::route().to(portfolio_link::create)))
        .service(get("/dashboard/markets", web::route().to(markets::page)))
        .service(post(visibility_mode::PATH, web::route().to(visibility_mode::set)))
        .service(post(
            "/dashboard/markets/{id}/visibility",
            web::route().to(markets::set_visibility),
        ))
        .service(get("/dashboard/trades", web::route().to(trades::page)))
        .service(get("/dashboard/resolutions", web::route().to(payouts::resolutions)))
        .service(get("/dashboard/redemptions", web::route().to(payouts::redemptions)))
        .service(get(
            "/dashboard/balance-operations",
            web::route().to(balance_operations::page),
        ))
        .service(both(
            "/dashboard/api-keys",
            web::route().to(api_keys::page),
            web::route().to(api_keys::create),
        ))
        .service(both(
            "/dashboard/api-keys/{id}/revoke",
            web::route().to(api_keys::confirm_revoke),
            web::route().to(api_keys::revoke),
        ))
        .service(both(
            "/dashboard/webhooks",
            web::route().to(webhooks::page),
            web::route().to(webhooks::create),
        ))
        .service(both(
            "/dashboard/webhooks/{id}",
            web::route().to(webhooks::edit),
            web::route().to(webhooks::update),
        ))
        .service(both(
            "/dashboard/webhooks/{id}/rotate",
            web::route().to(webhooks::confirm_rotate),
            web::route().to(webhooks::rotate),
        ))
        .service(both(
            "/dashboard/webhooks/{id}/disable",
            web::route().to(webhooks::confirm_disable),
            web::route().to(webhooks::disable),
        ))
        .service(post(
            "/dashboard/webhooks/{id}/enable",
            web::route().to(webhooks::enable),
        ))
        .service(both(
            "/dashboard/webhooks/{id}/delete",
            web::route().to(webhooks::confirm_delete),
            web::route().to(webhooks::delete),
        ))
        .service(get("/dashboard/deliveries", web::route().to(deliveries::page)))
        .service(get("/dashboard/deliveries/{id}", web::route().to(deliveries::detail)))
        .service(post(
            "/dashboard/deliveries/{id}/replay",
            web::route().to(deliveries::replay),
        ))
        .service(both(
            "/dashboard/wallet",
            web::route().to(wallet::page),
            web::route().to(wallet::configure),
        ))
        .service(both(
            "/dashboard/wallet/rotate",
            web::route().to(wallet::confirm_rotate),
            web::route().to(wallet::rotate),
        ))
        .service(post("/dashboard/wallet/test", web::route().to(wallet::test)))
        .service(both(
            "/dashboard/staff",
            web::route().to(staff::page),
            web::route().to(staff::create),
        ))
        .service(both(
            "/dashboard/staff/{id}",
            web::route().to(staff::edit),
            web::route().to(staff::update),
        ))
        .service(both(
            "/dashboard/staff/{id}/disable",
            web::route().to(staff::confirm_disable),
            web::route().to(staff::disable),
        ))
        .service(post("/dashboard/staff/{id}/enable", web::route().to(staff::enable)))
        .service(both(
            "/dashboard/staff/{id}/reset-password",
            web::route().to(staff::confirm_reset_password),
            web::route().to(staff::reset_password),
        ))
        .service(both(
            password::PATH,
            web::route().to(password::page),
            web::route().to(password::change),
        ))
        .service(both(
            "/dashboard/simulator",
            web::route().to(simulator::page),
            web::route().to(simulator::create_user),
        ))
        .service(post(
            "/dashboard/simulator/scenarios",
            web::route().to(simulator::scenario_run),
        ))
        .service(both(
            "/dashboard/simulator/users/{id}",
            web::route().to(simulator::user),
            web::route().to(simulator::operation),
        ))
        .service(post(
            "/dashboard/simulator/users/{id}/balance",
            web::route().to(simulated_user::set_balance),
        ))
        .service(post(
            "/dashboard/simulator/users/{id}/change",
            web::route().to(simulated_user::change),
        ))
        .service(get("/dashboard/flight", web::route().to(flight::overview::page)))
        .service(get("/dashboard/flight/flights", web::route().to(flight::flights::page)))
        .service(get(
            "/dashboard/flight/flights/export",
            web::route().to(flight::flights::export),
        ))
        .service(get(
            "/dashboard/flight/flights/{id}",
            web::route().to(flight::flights::flight),
        ))
        .service(get("/dashboard/flight/tickets", web::route().to(flight::tickets::page)))
        .service(get(
            "/dashboard/flight/tickets/export",
            web::route().to(flight::tickets::export),
        ))
        .service(get(
            "/dashboard/flight/tickets/{id}",
            web::route().to(flight::tickets::ticket),
        ))
        .service(get("/dashboard/flight/terms", web::route().to(flight::terms::page)))
        .service(get(
            "/dashboard/flight/statements",
            web::route().to(flight::statements::page),
        ))
        .service(get(
            "/dashboard/flight/statements/{id}",
            web::route().to(flight::statements::report),
        ))
        .service(get(
            "/dashboard/flight/statements/{id}/export",
            web::route().to(flight::statements::export),
        ))
        .service(get(
            "/dashboard/flight/payments",
            web::route().to(flight::payments::page),
        ))
        .service(get(
            "/dashboard/flight/corrections",
            web::route().to(flight::corrections::page),
        ))
        .service(get("/dashboard/{rest:.*}", web::route().to(not_found)));
}

/// Any other address below the dashboard: a page saying so, not a problem body.
async fn not_found() -> Result<actix_web::HttpResponse, error::DashboardError> {
    Err(crate::http::error::ApiError::RouteNotFound.into())
}
