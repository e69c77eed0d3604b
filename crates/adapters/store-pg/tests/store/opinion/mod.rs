//! The opinion market: trading, settlement and the operator's reads.

mod reads;
mod settlement;
mod trading;
