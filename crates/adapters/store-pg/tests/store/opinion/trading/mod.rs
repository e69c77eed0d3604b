//! Trading: the atomic trading step, launches and player sessions, market visibility,
//! and the trading seeds the other opinion tests share.

pub(crate) mod fixtures;
mod market_visibility;
mod store;
