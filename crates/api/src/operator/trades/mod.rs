//! `/api/operator/trades`: trades as JSON and as pages.

pub mod dto;
pub mod handlers;
