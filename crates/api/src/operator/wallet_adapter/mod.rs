//! `/api/operator/wallet-adapter`: the operator's wallet adapter and its full-contract test.

pub mod dto;
pub mod handlers;
pub mod wallet_test;
