//! Trading: the atomic trading step, launches and player sessions,
//! and the trading seeds the other opinion tests share.

pub(crate) mod fixtures;
mod store;
