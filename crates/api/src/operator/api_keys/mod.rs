//! `/api/operator/api-keys`: the operator's API keys.

pub mod dto;
pub mod handlers;
