//! Platform staff's market administration: creating, closing and listing markets.
//! Resolving one is `resolution.rs`. Markets are platform-wide; each operator trades
//! its own pool on them.

use opinion_core::MarketId;
use opinion_market::{MarketSpec, MarketSpecError, MarketStatus, MarketTextError};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::model::Market;
use crate::opinion::settlement::MarketSettlement;
use crate::ports::StoreError;

/// What staff ask for when creating a market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMarket {
    /// The question players bet on.
    pub question: String,
    /// How the question will be resolved.
    pub rules: String,
    /// When trading stops.
    pub close_at: OffsetDateTime,
    /// LMSR liquidity `b`, in each operator's minor units.
    pub liquidity: i64,
    /// The trading fee in basis points.
    pub fee_bps: u16,
}

/// Most markets one list returns.
pub const MAX_MARKET_LIST: u16 = 200;

/// The request field a refused market spec names.
fn spec_field(error: &MarketSpecError) -> &'static str {
    match error {
        MarketSpecError::Text(MarketTextError::Question(_)) => "question",
        MarketSpecError::Text(_) => "rules",
        MarketSpecError::Liquidity(_) => "liquidity",
        MarketSpecError::Fee(_) => "fee_bps",
        MarketSpecError::CloseNotInFuture { .. } => "close_at",
    }
}

/// The answer to a market status change that lost a race or is not allowed.
pub(crate) fn status_conflict(detail: impl ToString) -> AppError {
    AppError::Conflict {
        code: ProblemCode::MarketStatus,
        detail: detail.to_string(),
    }
}

impl MarketSettlement {
    /// Creates an open market from a validated spec.
    pub async fn create_market(&self, new: NewMarket) -> Result<Market, AppError> {
        let now = self.trading.ports.clock.now();
        let spec = MarketSpec::parse(&new.question, &new.rules, new.close_at, new.liquidity, new.fee_bps, now)
            .map_err(|e| AppError::invalid(spec_field(&e), e))?;
        let market = Market {
            id: MarketId::from_ulid(self.trading.ports.random.ulid()),
            question: spec.question.as_str().to_owned(),
            rules: spec.rules.as_str().to_owned(),
            close_at: spec.close_at,
            liquidity: spec.liquidity,
            fee: spec.fee,
            status: MarketStatus::Open,
            created_at: now,
            closed_at: None,
            resolved_at: None,
        };
        self.trading.ports.markets.insert_market(&market).await?;
        tracing::info!(market_id = %market.id, "market created");
        Ok(market)
    }

    /// Stops trading on an open market.
    pub async fn close_market(&self, id: MarketId) -> Result<Market, AppError> {
        let market = self.market(id).await?;
        let status = market.status.close().map_err(status_conflict)?;
        let now = self.trading.ports.clock.now();
        let closed = Market {
            status,
            closed_at: Some(now),
            ..market
        };
        self.move_market(&closed, MarketStatus::Open).await?;
        tracing::info!(market_id = %id, "market closed");
        Ok(closed)
    }

    /// The newest markets, at most `limit` (1 to 200).
    pub async fn list_markets(&self, limit: u16) -> Result<Vec<Market>, AppError> {
        if !(1..=MAX_MARKET_LIST).contains(&limit) {
            return Err(AppError::invalid("limit", "must be between 1 and 200"));
        }
        Ok(self.trading.ports.markets.list_markets(limit).await?)
    }

    /// A market, or `NotFound`.
    pub(crate) async fn market(&self, id: MarketId) -> Result<Market, AppError> {
        self.trading
            .ports
            .markets
            .find_market(id)
            .await?
            .ok_or(AppError::NotFound("market"))
    }

    /// Stores `market`'s new status if it is still `expected`; a lost race is a conflict.
    pub(crate) async fn move_market(&self, market: &Market, expected: MarketStatus) -> Result<(), AppError> {
        match self.trading.ports.markets.update_market_status(market, expected).await {
            Err(StoreError::Conflict(_)) => Err(status_conflict("the market changed meanwhile; read it again")),
            other => Ok(other?),
        }
    }
}
