//! Whether an operator's players are offered a market: the one write among the
//! operator's market reads, with its outbox event.

use async_trait::async_trait;
use opinion_core::{MarketId, OperatorId};

use crate::model::{NewEvent, OperatorMarket};
use crate::ports::StoreError;

/// The market after a visibility request, and whether the request changed anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibilityOutcome {
    /// The market as the operator now sees it.
    pub market: OperatorMarket,
    /// `false` when the market already had the requested visibility.
    pub changed: bool,
}

/// Operators' market visibility.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait MarketVisibilityStore: Send + Sync {
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
