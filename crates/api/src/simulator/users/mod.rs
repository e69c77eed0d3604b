//! `/api/operator/simulator/users`: simulated users and their wallets.

pub mod dto;
pub mod handlers;
