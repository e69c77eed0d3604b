//! `/api/operator/wallet-adapter/test`: the full-contract test of the wallet adapter.

pub mod dto;
pub mod handlers;
