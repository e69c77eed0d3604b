//! The opinion market: trading (markets, launches, player sessions, trades and their
//! wallet operations), settlement (resolution, redemptions, the wallet worker and manual
//! review) and the operator's reads.

mod reads;
mod settlement;
mod trading;
