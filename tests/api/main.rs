//! Black-box tests of the whole service over HTTP, as an operator's integration uses it:
//! each test spawns the service on port 0 with its own database.

mod admin_cli;
mod admin_settlement;
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
mod trading_crash;
mod trading_events;
mod trading_faults;
mod trading_launch;
mod trading_races;
mod trading_seed;
mod trading_story;
mod trading_support;
mod visibility_modes;
mod wallet_adapter;
mod wallet_adapter_test;
mod wallet_worker;
mod webhooks_deliveries;
mod webhooks_delivery;
mod webhooks_endpoints;
mod webhooks_support;
