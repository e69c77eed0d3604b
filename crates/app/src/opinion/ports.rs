//! The markets of the Opinion product, as trading, settlement and the operator's
//! visibility switch need them: markets are platform-wide, each operator sees them
//! through its own pool and visibility.

use async_trait::async_trait;
use opinion_core::{MarketId, OperatorId};
use opinion_market::MarketStatus;

use crate::model::{Market, NewEvent, OperatorMarket};
use crate::ports::StoreError;

/// The market after a visibility request, and whether the request changed anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibilityOutcome {
    /// The market as the operator now sees it.
    pub market: OperatorMarket,
    /// `false` when the market already had the requested visibility.
    pub changed: bool,
}

/// Markets and each operator's view of them.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait MarketStore: Send + Sync {
    /// Stores a new market (platform staff).
    async fn insert_market(&self, market: &Market) -> Result<(), StoreError>;
    /// Moves a market to `market.status` if it is still in `expected` (platform staff).
    async fn update_market_status(&self, market: &Market, expected: MarketStatus) -> Result<(), StoreError>;
    /// Reads a market.
    async fn find_market(&self, id: MarketId) -> Result<Option<Market>, StoreError>;
    /// Reads a market as `operator` sees it.
    async fn find_operator_market(
        &self,
        operator: OperatorId,
        id: MarketId,
    ) -> Result<Option<OperatorMarket>, StoreError>;
    /// Every market, newest first, at most `limit` (platform staff).
    async fn list_markets(&self, limit: u16) -> Result<Vec<Market>, StoreError>;
    /// Hides or shows `market` to the operator's players (creating the operator's pool
    /// row when there is none) at `event.created_at`. In the same transaction, and only
    /// when the visibility changes, writes `event` to the outbox. `None` if there is no
    /// such market.
    async fn set_market_visibility(
        &self,
        operator: OperatorId,
        market: MarketId,
        hidden: bool,
        event: &NewEvent,
    ) -> Result<Option<VisibilityOutcome>, StoreError>;
}
