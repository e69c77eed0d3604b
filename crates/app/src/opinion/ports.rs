//! The markets of the Opinion product, as trading, settlement and the operator's
//! visibility switch need them: markets are platform-wide, each operator sees them
//! through its own pool and visibility.

use async_trait::async_trait;
use opinion_core::{MarketId, OperatorId};
use opinion_market::{MarketChoice, MarketStatus, VisibilityMode};
use time::OffsetDateTime;

use crate::model::{Market, NewEvent, OperatorMarket};
use crate::ports::StoreError;

/// An operator's visibility mode and how many visibility changes it has seen; a change
/// is written only over the revision it was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VisibilitySettings {
    /// How the per-market choices decide what the players are offered.
    pub mode: VisibilityMode,
    /// Counts every change of the mode or of a choice; `0` before the first.
    pub revision: i64,
    /// When the mode or a choice last changed, if ever.
    pub updated_at: Option<OffsetDateTime>,
}

/// A visibility change to write over `expected_revision`, with the events it announces
/// (written in the same transaction).
#[derive(Debug, Clone, PartialEq)]
pub struct VisibilityWrite {
    /// The revision the change was computed from.
    pub expected_revision: i64,
    /// The mode after the change.
    pub mode: VisibilityMode,
    /// When the change happens.
    pub at: OffsetDateTime,
    /// The `mini_app.market.visibility_changed` events of the markets whose visibility changes.
    pub events: Vec<NewEvent>,
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
    /// The operator's visibility settings (the default mode at revision 0 when it never
    /// changed anything).
    async fn visibility_settings(&self, operator: OperatorId) -> Result<VisibilitySettings, StoreError>;
    /// The operator's choice for every market not yet resolved, oldest first.
    async fn market_choices(&self, operator: OperatorId) -> Result<Vec<(MarketId, MarketChoice)>, StoreError>;
    /// Records the operator's `choice` for `market` (creating the operator's pool row
    /// when there is none) with `write`'s events, and moves the revision on.
    /// `Conflict(Visibility)` if the revision moved meanwhile; `None` if there is no
    /// such market.
    async fn set_market_choice(
        &self,
        operator: OperatorId,
        market: MarketId,
        choice: MarketChoice,
        write: &VisibilityWrite,
    ) -> Result<Option<OperatorMarket>, StoreError>;
    /// Sets the operator's mode with `write`'s events and moves the revision on.
    /// `Conflict(Visibility)` if the revision moved meanwhile.
    async fn set_visibility_mode(&self, operator: OperatorId, write: &VisibilityWrite) -> Result<(), StoreError>;
}
