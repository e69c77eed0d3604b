//! Settlement: the `SettlementStore` port, a market's resolution with its redemptions,
//! the wallet worker's claims and the reads of manual review.

pub(crate) mod resolution;
pub(crate) mod review;
pub(crate) mod rows;
mod store;
pub(crate) mod wallet_worker;
