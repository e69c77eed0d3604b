//! The operator's reads: players, markets, positions and trades; payouts and wallet
//! operations; trending activity.

mod payouts;
mod players_markets_trades;
mod trending;
