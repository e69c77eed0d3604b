//! What an operator reads about its players, markets, trades, payouts and wallet
//! operations, in the use cases' terms. Every method names the operator and answers
//! only with that operator's rows (markets are shared, but the pool and visibility read
//! with them are the operator's own).

use async_trait::async_trait;
use opinion_core::{
    MarketId, MarketKind, OperatorId, Page, PageRequest, RedemptionKind, TradeId, TradeKind, UserId, UserKind,
    WalletOperationId, WalletOperationKind,
};
use opinion_market::{PricePpm, RedemptionStatus, Resolution, Side, TradeStatus};
use opinion_wallet::{OperationState, WalletFlow};
use time::{Date, OffsetDateTime};

use crate::model::{
    MarketResolution, OperatorMarket, PositionRecord, Redemption, Trade, User, WalletOperationRecord,
    WalletOperationStep,
};
use crate::ports::StoreError;

/// A half-open time window `[from, to)` on a list's own timestamp; either end may be open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeRange {
    /// Inclusive lower bound.
    pub from: Option<OffsetDateTime>,
    /// Exclusive upper bound.
    pub to: Option<OffsetDateTime>,
}

/// Which players to list (by creation time).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserFilter {
    /// Only the player with this operator id.
    pub external_user_id: Option<String>,
    /// Only players first launched in this window.
    pub created: TimeRange,
}

/// A market's life-cycle stage, without the resolution: what the `status` filter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarketStage {
    /// Trading.
    Open,
    /// No longer trading, not yet resolved.
    Closed,
    /// Resolved (any resolution).
    Resolved,
}

/// Which markets to list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MarketFilter {
    /// Only markets at this stage.
    pub stage: Option<MarketStage>,
    /// Only markets hidden (`true`) or visible (`false`) to this operator's players.
    pub hidden: Option<bool>,
}

/// Which trades to list (by creation time).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TradeFilter {
    /// Only this player's trades.
    pub external_user_id: Option<String>,
    /// Only trades in this market.
    pub market_id: Option<MarketId>,
    /// Only trades in this state.
    pub status: Option<TradeStatus>,
    /// Only buys or only sells.
    pub side: Option<Side>,
    /// Only trades created in this window.
    pub created: TimeRange,
}

/// Which market resolutions to list (by resolution time).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResolutionFilter {
    /// Only this market's.
    pub market_id: Option<MarketId>,
    /// Only this resolution.
    pub resolution: Option<Resolution>,
    /// Only markets resolved in this window.
    pub resolved: TimeRange,
}

/// Which redemptions to list (by creation time).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedemptionFilter {
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only this market's.
    pub market_id: Option<MarketId>,
    /// Only redemptions in this state.
    pub status: Option<RedemptionStatus>,
    /// Only redemptions created in this window.
    pub created: TimeRange,
}

/// Which wallet operations to list (by creation time).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalletOperationFilter {
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only this market's.
    pub market_id: Option<MarketId>,
    /// Only this flow.
    pub flow: Option<WalletFlow>,
    /// Only operations in this state.
    pub state: Option<OperationState>,
    /// Only operations created in this window.
    pub created: TimeRange,
}

/// A player's position together with the market (and the operator's pool) it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldPosition {
    pub position: PositionRecord,
    /// Its market, as the operator sees it.
    pub market: OperatorMarket,
}

/// An open, visible market's executed trading since a point in time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketActivity {
    /// The market and the operator's pool on it.
    pub market: OperatorMarket,
    /// Distinct players with an executed trade since then.
    pub traders: i64,
    /// Sum of those trades' amounts, in minor units.
    pub volume: i64,
    /// The YES price before the first of those trades.
    pub yes_price_at_start: PricePpm,
}

/// The operator-facing reads.
/// The operator's executed trades of one UTC day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyTrading {
    /// The day (UTC).
    pub day: Date,
    /// Executed trades.
    pub trades: u64,
    /// Their amounts' sum, in the operator's minor units.
    pub volume: i64,
    /// Distinct players among them.
    pub players: u64,
}

#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OperatorReadStore: Send + Sync {
    /// One page of the operator's players, newest first.
    async fn list_users(
        &self,
        operator: OperatorId,
        filter: &UserFilter,
        page: PageRequest<UserKind>,
    ) -> Result<Page<User, UserKind>, StoreError>;
    /// The operator's player known by `external_user_id`.
    async fn find_user_by_external_id(
        &self,
        operator: OperatorId,
        external_user_id: &str,
    ) -> Result<Option<User>, StoreError>;
    /// The operator's player with this id.
    async fn find_user(&self, operator: OperatorId, id: UserId) -> Result<Option<User>, StoreError>;
    /// Every position of the player, newest market first, each with its market.
    async fn list_positions(&self, operator: OperatorId, user: UserId) -> Result<Vec<HeldPosition>, StoreError>;
    /// The player's position in one market.
    async fn find_position(
        &self,
        operator: OperatorId,
        user: UserId,
        market: MarketId,
    ) -> Result<Option<PositionRecord>, StoreError>;
    /// One page of markets with the operator's pool and visibility, newest first.
    async fn list_markets(
        &self,
        operator: OperatorId,
        filter: &MarketFilter,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<OperatorMarket, MarketKind>, StoreError>;
    /// One market with the operator's pool and visibility.
    async fn find_market(&self, operator: OperatorId, id: MarketId) -> Result<Option<OperatorMarket>, StoreError>;
    /// The executed trading since `since` of every open market visible to the
    /// operator's players that had any, in one query.
    async fn market_activity(
        &self,
        operator: OperatorId,
        since: OffsetDateTime,
    ) -> Result<Vec<MarketActivity>, StoreError>;
    /// Executed trades per UTC day, created at `from` or later; days without one are left out.
    async fn daily_trading(&self, operator: OperatorId, from: OffsetDateTime) -> Result<Vec<DailyTrading>, StoreError>;
    /// How many of the operator's wallet operations wait in manual review.
    async fn manual_reviews_open(&self, operator: OperatorId) -> Result<u64, StoreError>;
    /// One page of the operator's trades, newest first.
    async fn list_trades(
        &self,
        operator: OperatorId,
        filter: &TradeFilter,
        page: PageRequest<TradeKind>,
    ) -> Result<Page<Trade, TradeKind>, StoreError>;
    /// One trade of the operator.
    async fn find_trade(&self, operator: OperatorId, id: TradeId) -> Result<Option<Trade>, StoreError>;
    /// The wallet operations of one trade (buy, sell, compensation), oldest first.
    async fn list_trade_wallet_operations(
        &self,
        operator: OperatorId,
        trade: TradeId,
    ) -> Result<Vec<WalletOperationRecord>, StoreError>;
    /// One page of the operator's market resolutions, newest market first.
    async fn list_resolutions(
        &self,
        operator: OperatorId,
        filter: &ResolutionFilter,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<MarketResolution, MarketKind>, StoreError>;
    /// One page of the operator's redemptions, newest first.
    async fn list_redemptions(
        &self,
        operator: OperatorId,
        filter: &RedemptionFilter,
        page: PageRequest<RedemptionKind>,
    ) -> Result<Page<Redemption, RedemptionKind>, StoreError>;
    /// One page of the operator's Opinion wallet operations (Opinion's flows only), newest first.
    async fn list_wallet_operations(
        &self,
        operator: OperatorId,
        filter: &WalletOperationFilter,
        page: PageRequest<WalletOperationKind>,
    ) -> Result<Page<WalletOperationRecord, WalletOperationKind>, StoreError>;
    /// The steps of the given operations of the operator, each operation's in order.
    async fn list_wallet_operation_steps(
        &self,
        operator: OperatorId,
        operations: &[WalletOperationId],
    ) -> Result<Vec<(WalletOperationId, WalletOperationStep)>, StoreError>;
}
