//! `/api/operator/markets`: markets with the operator's pool, trending, visibility.

pub mod dto;
pub mod handlers;
