//! `/api/operator/webhooks/deliveries`: the delivery log and replays.

pub mod dto;
pub mod handlers;
