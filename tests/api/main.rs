//! Black-box tests of the whole service over HTTP, as an operator's integration uses it:
//! each test spawns the service on port 0 with its own database.

mod admin_cli;
mod api_keys;
mod errors;
mod helpers;
mod operational;
mod operator_reads;
mod operator_reads_markets;
mod operator_reads_pages;
mod route_table;
mod simulator;
mod simulator_production;
mod simulator_support;
mod simulator_walkthrough;
mod staff;
mod tenant_isolation;
mod trading_seed;
mod wallet_adapter;
mod wallet_adapter_test;
mod webhooks_deliveries;
mod webhooks_delivery;
mod webhooks_endpoints;
mod webhooks_support;
