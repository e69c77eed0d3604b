//! `/api/operator/resolutions` and `/api/operator/redemptions`: what resolved markets
//! owed the operator's players, and each payout.

pub mod dto;
pub mod handlers;
