//! `/api/operator/balance-operations`: every wallet call made for the operator's players.

pub mod dto;
pub mod handlers;
