//! Prediction markets: a YES/NO question that staff create, close and resolve, and the
//! market maker every operator runs on it. Pure: no I/O, no clock, no randomness (the
//! caller passes `now` in).
//!
//! # Money and shares
//!
//! Money is an `i64` count of the operator's currency's minor units. **One share unit
//! pays exactly one minor unit if its outcome wins**, so share quantities and money are
//! both integers and no currency exponent enters the maths; an API that shows
//! "1 share = 1 major unit" multiplies by `10^exponent` at its edge.
//!
//! # Pricing
//!
//! Each operator has its own [`Pool`] per market, priced by Hanson's logarithmic market
//! scoring rule with liquidity `b`: `C(q) = b·ln(e^(q_yes/b) + e^(q_no/b))`, and the
//! price of YES is `e^(q_yes/b) / (e^(q_yes/b) + e^(q_no/b))`. A trade from `q` to `q'`
//! costs `C(q') − C(q)`; on a YES or NO resolution the maker's worst-case loss is
//! `b·ln 2` (a VOID resolution is different: see [`redemption`]).
//!
//! # Rounding
//!
//! Every debit of a player is rounded **up** and every credit **down**, after a margin
//! of [`ROUNDING_MARGIN`] (1/64 minor unit) that provably exceeds the floating-point
//! error of the computation within the input bounds: `1 ≤ b ≤ 10^12`
//! ([`Liquidity::MAX`]), outstanding shares `0..=10^13` ([`Pool::MAX_OUTSTANDING`]),
//! trades of at most [`MAX_TRADE_SHARES`] shares or [`MAX_TRADE_AMOUNT`] minor units.
//! Because `C` is a function of the pool state, a player's money after any sequence of
//! trades that returns the pool to where it was is at most what it was before: nobody
//! gains from rounding. Fees (at most 10%) are rounded up too.
//!
//! # Positions and resolution
//!
//! A [`Position`] tracks shares, cost basis by average cost and realized P&L per player
//! per market; [`redemption`] pays one minor unit per winning share, or refunds the net
//! cost (never below zero) when the market is voided. [`value_position`] values a position
//! for reports: at the pool's prices until resolution, at its payout after.
//!
//! # Trending
//!
//! [`trending_score`] scores an operator's market by its recent executed trading
//! (distinct traders, volume against `b`, YES price movement) in integer micro-points;
//! [`trending_order`] ranks by it.
//!
//! # Visibility
//!
//! [`VisibilityMode`] and each market's [`MarketChoice`] decide, in one rule, which
//! markets an operator's players are offered.

#![warn(missing_docs)]

mod fee;
mod liquidity;
mod lmsr;
mod market_spec;
mod market_text;
mod outcome;
mod payout;
mod placement;
mod pool;
mod position;
mod price;
mod quote;
mod slippage;
mod status;
mod trade;
mod trade_status;
mod trending;
mod valuation;
mod visibility;

#[cfg(test)]
mod properties;

pub use fee::{FeeRate, FeeRateError};
pub use liquidity::{Liquidity, LiquidityError};
pub use lmsr::ROUNDING_MARGIN;
pub use market_spec::{MarketSpec, MarketSpecError, check_close_time};
pub use market_text::{MarketQuestion, MarketRules, MarketTextError};
pub use outcome::{Outcome, Side, UnknownName};
pub use payout::redemption;
pub use placement::{DebitedBuy, PlacementRefusal, place_debited_buy, unwind_sale};
pub use pool::{Pool, PoolError};
pub use position::{Holding, Position, PositionError};
pub use price::{PriceOutOfRange, PricePpm};
pub use quote::{Quote, TradeError};
pub use slippage::{SlippageError, SlippageTolerance, check_max_cost, check_min_proceeds};
pub use status::{MarketStatus, Resolution, StatusError};
pub use trade::{MAX_TRADE_AMOUNT, MAX_TRADE_SHARES, quote_buy_amount, quote_buy_shares, quote_sell};
pub use trade_status::{OrderKind, RedemptionStatus, TradeStatus};
pub use trending::{Activity, TrendingScore, TrendingWindow, trending_order, trending_score};
pub use valuation::{Valuation, ValuationBasis, value_position};
pub use visibility::{MarketChoice, VisibilityMode};
