//! The opinion market: trading (markets, launches, player sessions, trades and their
//! wallet operations), settlement (resolution, redemptions, the wallet worker and manual
//! review) and the operator's reads.

pub(crate) mod flows;
mod markets;
pub(crate) mod reads;
pub(crate) mod settlement;
pub(crate) mod trading;
pub(crate) mod visibility;
