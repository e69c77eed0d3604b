//! The PostgreSQL store against a real database: each test gets its own migrated
//! database from the testkit, and uses fixed ids and times.

mod api_keys;
mod fixtures;
mod isolation;
mod market_visibility;
mod migrations;
mod operator_reads;
mod payouts;
mod query_plans;
mod sessions;
mod settlement;
mod settlement_claims;
mod settlement_fixtures;
mod staff;
mod trading;
mod trading_fixtures;
mod trending;
mod wallet_adapters;
mod webhooks;
