//! The PostgreSQL store against a real database: each test gets its own migrated
//! database from the testkit, and uses fixed ids and times.

mod access;
mod fixtures;
mod flight;
mod indexes;
mod migrations;
mod opinion;
mod players;
mod query_plans;
mod sealing;
mod tenancy;
mod time_limits;
mod transactions;
mod wallet;
mod webhooks;
