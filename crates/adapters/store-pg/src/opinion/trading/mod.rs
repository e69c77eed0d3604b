//! Trading: the `TradingStore` port (markets, launches and player sessions, the atomic
//! trading step) and market visibility, with the rows and finds of markets, pools,
//! positions, trades and wallet operations that settlement and the reads also use.

pub(crate) mod apply;
pub(crate) mod finds;
pub(crate) mod player_external_ids;
pub(crate) mod rows;
mod store;
pub(crate) mod write_rows;
