//! The operator's reads (`OperatorReadStore`), one file per resource. Every query filters
//! by the operator (markets, which are shared, are read with the operator's own pool
//! row), and every list is one keyset page by id, newest first (`db/keyset_page.rs`).

mod activity;
mod markets;
mod payouts;
mod positions;
mod store;
mod trades;
mod trending;
pub(crate) mod users;
pub(crate) mod wallet_operations;
