//! The operations the handlers document in their own `#[utoipa::path]` attributes, with
//! every schema their bodies, parameters and responses use.

use utoipa::OpenApi;

use crate::http::problem::Problem;
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
use crate::operator::webhooks::deliveries::handlers as webhook_deliveries;
use crate::operator::webhooks::endpoints::handlers as webhook_endpoints;
use crate::public::flight::handlers as public_flight;
use crate::simulator::operations::handlers as simulator_operations;
use crate::simulator::users::handlers as simulator_users;
use crate::simulator::wallets::handlers as simulator_wallets;
use crate::views::handlers as views;

/// The handlers' operations; `Problem` is named here because the shared problem responses
/// refer to it without registering it.
#[derive(OpenApi)]
#[openapi(
    paths(
        operational::openapi_document,
        launch::launch,
        launch_settings::get,
        launch_settings::put,
        branding::get,
        branding::put,
        users::portfolio_link,
        users::list,
        users::portfolio,
        users::portfolio_view,
        markets::list,
        markets::trending,
        markets::set_visibility,
        markets::visibility_mode,
        markets::set_visibility_mode,
        trades::list,
        trades::get,
        trades::view,
        trades::history,
        payouts::resolutions,
        payouts::redemptions,
        balance_operations::list,
        flight::overview,
        flight::flights,
        flight::flight,
        flight::export_flights,
        flight::tickets,
        flight::ticket,
        flight::export_tickets,
        flight_proof::operator_ticket_proof,
        flight::wallet_operations,
        flight::webhook_deliveries,
        public_flight::chains,
        public_flight::chain,
        flight_terms::current,
        flight_terms::scheduled,
        flight_terms::history,
        flight_reports::list,
        flight_reports::get,
        flight_report_export::export,
        flight_corrections::list,
        flight_payments::list,
        flight_payments::of_report,
        statement_keys::list,
        wallet_adapter::get,
        wallet_adapter::put,
        wallet_test::test,
        api_keys::list,
        api_keys::create,
        api_keys::revoke,
        playground::get,
        playground::put,
        webhook_endpoints::list,
        webhook_endpoints::create,
        webhook_endpoints::update,
        webhook_endpoints::delete,
        webhook_endpoints::delete_by_post,
        webhook_deliveries::list,
        webhook_deliveries::replay,
        simulator_users::list,
        simulator_users::create,
        simulator_users::get,
        simulator_users::update,
        simulator_wallets::get,
        simulator_wallets::put,
        simulator_operations::user_operation_run,
        simulator_operations::scenario_run,
        staff_sessions::create,
        staff_sessions::end,
        staff::list,
        staff::create,
        staff::update,
        staff::reset_password,
        staff::change_own_password,
        views::portfolio,
    ),
    components(schemas(Problem))
)]
pub struct HandlerOperations;
