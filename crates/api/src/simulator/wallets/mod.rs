//! `/api/operator/simulator/wallets`: the simulated users' wallets.

pub mod dto;
pub mod handlers;
