//! The operator API below `/api/operator`, one folder per feature: its handlers in
//! `handlers.rs`, beside the wire types they read and write (camelCase JSON with their
//! OpenAPI schemas) in `dto.rs`. Guarding happens before the handlers (`http::auth`), so
//! a handler receives an authorised `Caller` and deals with its resource only.

pub mod api_keys;
pub mod balance_operations;
pub mod branding;
pub mod flight;
pub mod launch;
pub mod launch_settings;
pub mod markets;
pub mod payouts;
pub mod playground;
pub mod staff;
pub mod trades;
pub mod users;
pub mod wallet_adapter;
pub mod webhooks;
