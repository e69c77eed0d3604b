//! `/api/operator/playground`: whether the documentation's playground console may send
//! more than reads for the operator in production.

pub mod dto;
pub mod handlers;
