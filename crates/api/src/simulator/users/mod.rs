//! `/api/operator/simulator/users`: simulated users.

pub mod dto;
pub mod handlers;
