//! The operator's reads: players, markets, positions and trades; payouts and wallet
//! operations; trending activity; the overview's daily figures.

mod activity;
mod payouts;
mod players_markets_trades;
mod trending;
