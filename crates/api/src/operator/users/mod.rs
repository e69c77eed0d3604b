//! `/api/operator/users`: players and their portfolios.

pub mod dto;
pub mod handlers;
