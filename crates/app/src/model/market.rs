//! Markets as stored: the platform-wide market and one operator's view of it.

use opinion_core::MarketId;
use opinion_market::{FeeRate, Liquidity, MarketChoice, MarketStatus, Pool, VisibilityMode};
use time::OffsetDateTime;

/// A market, shared by every operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Market {
    pub id: MarketId,
    /// The question players bet on.
    pub question: String,
    /// How the question will be resolved.
    pub rules: String,
    /// When trading stops.
    pub close_at: OffsetDateTime,
    /// The LMSR liquidity `b` of each operator's pool, in the operator's minor units.
    pub liquidity: Liquidity,
    /// The trading fee.
    pub fee: FeeRate,
    /// Open, closed or resolved (with its resolution).
    pub status: MarketStatus,
    /// When staff created it.
    pub created_at: OffsetDateTime,
    /// When it was closed, if it was.
    pub closed_at: Option<OffsetDateTime>,
    /// When it was resolved, if it was.
    pub resolved_at: Option<OffsetDateTime>,
}

/// A market as one operator sees it: its own pool and whether its players are offered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorMarket {
    pub market: Market,
    /// The operator's pool (empty until its first trade).
    pub pool: Pool,
    /// What the operator said of this market with the per-market switch.
    pub choice: MarketChoice,
    /// The operator's visibility mode when the market was read.
    pub mode: VisibilityMode,
}

impl OperatorMarket {
    /// Whether the operator's players are not offered the market (the domain's rule over
    /// the mode and the choice). Hidden markets are not offered in the hosted app.
    pub fn hidden(&self) -> bool {
        !self.mode.shows(self.choice)
    }
}
