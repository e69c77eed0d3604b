//! The opinion market: trading, settlement, the operator's reads and market visibility.

mod reads;
mod settlement;
pub(crate) mod trading;
mod visibility;
