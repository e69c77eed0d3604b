//! Mounts every route of the access domain's route table: one actix resource per path,
//! guarded by that path's requirements, each route bound to its handler.

use std::sync::Arc;

use actix_web::http::Method;
use actix_web::middleware::from_fn;
use actix_web::{Route, web};
use opinion_access::{HttpMethod, ROUTES, RouteId, RouteSpec};

use crate::http::auth::{MethodRequirements, guard};
use crate::http::simulator_gate::{self, SIMULATOR_ROUTES};
use crate::operational::handlers as operational;
use crate::operator::api_keys::handlers as api_keys;
use crate::operator::balance_operations::handlers as balance_operations;
use crate::operator::branding::handlers as branding;
use crate::operator::flight::handlers as flight;
use crate::operator::flight::proof as flight_proof;
use crate::operator::flight::settlement::{
    corrections as flight_corrections, export as flight_report_export, payments as flight_payments,
    reports as flight_reports,
};
use crate::operator::flight::statement_keys;
use crate::operator::flight::terms as flight_terms;
use crate::operator::launch::handlers as launch;
use crate::operator::launch_settings::handlers as launch_settings;
use crate::operator::markets::handlers as markets;
use crate::operator::payouts::handlers as payouts;
use crate::operator::playground::handlers as playground;
use crate::operator::staff::handlers as staff;
use crate::operator::staff::sessions::handlers as staff_sessions;
use crate::operator::trades::handlers as trades;
use crate::operator::users::handlers as users;
use crate::operator::wallet_adapter::handlers as wallet_adapter;
use crate::operator::wallet_adapter::wallet_test::handlers as wallet_test;
use crate::operator::webhooks::deliveries::handlers as webhooks_deliveries;
use crate::operator::webhooks::endpoints::handlers as webhooks_endpoints;
use crate::public::flight::handlers as public_flight;
use crate::routing::resource::{allowed, method_not_allowed};
use crate::simulator::operations::handlers as simulator_operations;
use crate::simulator::users::handlers as simulator;
use crate::simulator::wallets::handlers as simulator_wallets;

/// Registers every route of the table on `config`.
pub fn mount(config: &mut web::ServiceConfig) {
    for (path, specs) in resources() {
        let methods: Vec<Method> = specs.iter().map(|spec| actix_method(spec.method)).collect();
        let allowed = allowed(methods.iter());
        let requirements: MethodRequirements = Arc::new(
            specs
                .iter()
                .map(|spec| (actix_method(spec.method), spec.requirement))
                .collect(),
        );
        let resource = specs
            .iter()
            .fold(web::resource(path), |resource, spec| resource.route(route_for(spec)))
            .default_service(web::to(move || method_not_allowed(allowed.clone())))
            .wrap(from_fn(move |request, next| guard(requirements.clone(), request, next)));
        if path.starts_with(SIMULATOR_ROUTES) {
            config.service(resource.wrap(from_fn(simulator_gate::gate)));
        } else {
            config.service(resource);
        }
    }
}

/// The table's routes grouped by path, most specific path first, so that a literal
/// segment (`/staff/sessions`, `/flights/export`) wins over a parameter (`/staff/{id}`).
fn resources() -> Vec<(&'static str, Vec<&'static RouteSpec>)> {
    let mut specs: Vec<&RouteSpec> = ROUTES.iter().collect();
    specs.sort_by_key(|spec| specificity(spec.path));
    let mut resources: Vec<(&str, Vec<&RouteSpec>)> = Vec::new();
    for spec in specs {
        match resources.iter_mut().find(|(path, _)| *path == spec.path) {
            Some((_, group)) => group.push(spec),
            None => resources.push((spec.path, vec![spec])),
        }
    }
    resources
}

/// Sort key: segment by segment, literals before parameters.
fn specificity(path: &str) -> Vec<bool> {
    path.split('/').map(|segment| segment.starts_with('{')).collect()
}

fn actix_method(method: HttpMethod) -> Method {
    match method {
        HttpMethod::Get => Method::GET,
        HttpMethod::Post => Method::POST,
        HttpMethod::Put => Method::PUT,
        HttpMethod::Patch => Method::PATCH,
        HttpMethod::Delete => Method::DELETE,
    }
}

/// What mounts a route's handler on its method.
type Bind = fn(Route) -> Route;

fn route_for(spec: &RouteSpec) -> Route {
    handler(spec.id)(web::method(actix_method(spec.method)))
}

/// Every route of the table has its handler: the match is exhaustive, so a route added to
/// the table does not compile until it is built.
fn handler(id: RouteId) -> Bind {
    use RouteId as R;
    match id {
        R::OpenApiDocument => |r| r.to(operational::openapi_document),
        R::StatementKeys => |r| r.to(statement_keys::list),
        R::ApiKeysList => |r| r.to(api_keys::list),
        R::ApiKeyCreate => |r| r.to(api_keys::create),
        R::ApiKeyRevoke => |r| r.to(api_keys::revoke),
        R::PlaygroundGet => |r| r.to(playground::get),
        R::PlaygroundPut => |r| r.to(playground::put),
        R::StaffSessionCreate => |r| r.to(staff_sessions::create),
        R::StaffSessionEnd => |r| r.to(staff_sessions::end),
        R::StaffList => |r| r.to(staff::list),
        R::StaffCreate => |r| r.to(staff::create),
        R::StaffUpdate => |r| r.to(staff::update),
        R::StaffPasswordReset => |r| r.to(staff::reset_password),
        R::StaffOwnPasswordChange => |r| r.to(staff::change_own_password),
        R::Launch => |r| r.to(launch::launch),
        R::LaunchSettingsGet => |r| r.to(launch_settings::get),
        R::LaunchSettingsPut => |r| r.to(launch_settings::put),
        R::BrandingGet => |r| r.to(branding::get),
        R::BrandingPut => |r| r.to(branding::put),
        R::WebhookEndpointsList => |r| r.to(webhooks_endpoints::list),
        R::WebhookEndpointCreate => |r| r.to(webhooks_endpoints::create),
        R::WebhookEndpointUpdate => |r| r.to(webhooks_endpoints::update),
        R::WebhookEndpointDelete => |r| r.to(webhooks_endpoints::delete),
        R::WebhookEndpointDeleteByPost => |r| r.to(webhooks_endpoints::delete_by_post),
        R::WebhookDeliveriesList => |r| r.to(webhooks_deliveries::list),
        R::WebhookDeliveryReplay => |r| r.to(webhooks_deliveries::replay),
        R::WalletAdapterGet => |r| r.to(wallet_adapter::get),
        R::WalletAdapterPut => |r| r.to(wallet_adapter::put),
        R::PortfolioViewLink => |r| r.to(users::portfolio_link),
        R::UsersList => |r| r.to(users::list),
        R::UserPortfolio => |r| r.to(users::portfolio),
        R::UserPortfolioView => |r| r.to(users::portfolio_view),
        R::MarketsList => |r| r.to(markets::list),
        R::MarketsTrending => |r| r.to(markets::trending),
        R::MarketVisibilitySet => |r| r.to(markets::set_visibility),
        R::MarketVisibilityModeGet => |r| r.to(markets::visibility_mode),
        R::MarketVisibilityModeSet => |r| r.to(markets::set_visibility_mode),
        R::TradesList => |r| r.to(trades::list),
        R::TradeGet => |r| r.to(trades::get),
        R::TradeView => |r| r.to(trades::view),
        R::TradeHistoryPage => |r| r.to(trades::history),
        R::ResolutionsList => |r| r.to(payouts::resolutions),
        R::RedemptionsList => |r| r.to(payouts::redemptions),
        R::BalanceOperationsList => |r| r.to(balance_operations::list),
        R::WalletAdapterTest => |r| r.to(wallet_test::test),
        R::SimulatorUsersList => |r| r.to(simulator::list),
        R::SimulatorUserGet => |r| r.to(simulator::get),
        R::SimulatorWalletGet => |r| r.to(simulator_wallets::get),
        R::SimulatorUserCreate => |r| r.to(simulator::create),
        R::SimulatorUserUpdate => |r| r.to(simulator::update),
        R::SimulatorUserOperation => |r| r.to(simulator_operations::user_operation_run),
        R::SimulatorWalletPut => |r| r.to(simulator_wallets::put),
        R::SimulatorOperation => |r| r.to(simulator_operations::scenario_run),
        R::FlightOverview => |r| r.to(flight::overview),
        R::FlightFlightsList => |r| r.to(flight::flights),
        R::FlightFlightGet => |r| r.to(flight::flight),
        R::FlightFlightsExport => |r| r.to(flight::export_flights),
        R::FlightTicketsList => |r| r.to(flight::tickets),
        R::FlightTicketGet => |r| r.to(flight::ticket),
        R::FlightTicketsExport => |r| r.to(flight::export_tickets),
        R::FlightTicketProof => |r| r.to(flight_proof::operator_ticket_proof),
        R::FlightWalletOperationsList => |r| r.to(flight::wallet_operations),
        R::FlightWebhookDeliveriesList => |r| r.to(flight::webhook_deliveries),
        R::PublicFlightChainsList => |r| r.to(public_flight::chains),
        R::PublicFlightChainGet => |r| r.to(public_flight::chain),
        R::FlightTermsCurrent => |r| r.to(flight_terms::current),
        R::FlightTermsScheduled => |r| r.to(flight_terms::scheduled),
        R::FlightTermsHistory => |r| r.to(flight_terms::history),
        R::FlightSettlementReportsList => |r| r.to(flight_reports::list),
        R::FlightSettlementReportGet => |r| r.to(flight_reports::get),
        R::FlightSettlementReportExport => |r| r.to(flight_report_export::export),
        R::FlightStatementCorrectionsList => |r| r.to(flight_corrections::list),
        R::FlightPaymentsList => |r| r.to(flight_payments::list),
        R::FlightSettlementReportPayments => |r| r.to(flight_payments::of_report),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::openapi;

    #[test]
    fn literal_segments_are_mounted_before_parameters() {
        let order: Vec<&str> = resources().into_iter().map(|(path, _)| path).collect();
        let position = |path: &str| order.iter().position(|p| *p == path).expect("mounted");
        assert!(position("/api/operator/staff/sessions") < position("/api/operator/staff/{id}"));
        assert!(position("/api/operator/flight/flights/export") < position("/api/operator/flight/flights/{id}"));
        assert!(
            position("/api/operator/trades/{tradeId}/view")
                < position("/api/operator/trades/{marketId}/{externalUserId}")
        );
    }

    #[test]
    fn the_document_says_501_for_no_route() {
        let document = serde_json::to_value(openapi::document()).expect("serialisable");
        for spec in ROUTES {
            let operation = &document["paths"][spec.path][spec.method.as_str().to_ascii_lowercase()];
            assert!(operation.is_object(), "{:?} is documented", spec.id);
            assert!(operation["responses"]["501"].is_null(), "{:?}", spec.id);
        }
    }

    #[test]
    fn every_route_is_mounted_once() {
        let mounted: usize = resources().iter().map(|(_, specs)| specs.len()).sum();
        assert_eq!(mounted, ROUTES.len());
    }
}
