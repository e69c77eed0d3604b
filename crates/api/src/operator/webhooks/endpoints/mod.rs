//! `/api/operator/webhooks/endpoints`: where the operator receives events.

pub mod dto;
pub mod handlers;
