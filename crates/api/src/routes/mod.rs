//! Handlers, one file per resource. Guarding happens before them (see `auth`), so a
//! handler receives an authorised `Caller` and deals with its resource only.

pub mod api_keys;
pub mod balance_operations;
pub mod launch;
pub mod markets;
pub mod operational;
pub mod payouts;
pub mod player;
pub mod staff;
pub mod staff_sessions;
pub mod trades;
pub mod users;
pub mod views;
pub mod wallet_adapter;
pub mod webhooks_deliveries;
pub mod webhooks_endpoints;
