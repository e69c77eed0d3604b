//! The PostgreSQL store against a real database: each test gets its own migrated
//! database from the testkit, and uses fixed ids and times.

mod api_keys;
mod fixtures;
mod isolation;
mod migrations;
mod sessions;
mod staff;
mod trading;
mod wallet_adapters;
mod webhooks;
