//! Persistence of the trading write path. Every change of a trade's life is ONE
//! `TradingChange` applied atomically with compare-and-set preconditions, so the use
//! cases decide (with the domain's rules) and the store only ever commits a whole,
//! consistent step or nothing — and the webhook events of the step go to the outbox in
//! the same transaction.

use async_trait::async_trait;
use opinion_core::{MarketId, OperatorId, RedemptionId, TradeId, UserId, WalletOperationId};
use opinion_market::{Pool, Position, RedemptionStatus, TradeStatus};
use opinion_wallet::{OperationState, RequestFingerprint};
use time::OffsetDateTime;

use crate::model::{NewEvent, PositionRecord, Trade, WalletOperationRecord, WalletOperationStep};
use crate::ports::StoreError;

/// A pool change, applied only if the pool still holds `before` (a missing pool row is
/// an empty, visible pool).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolChange {
    pub market_id: MarketId,
    /// The pool as read.
    pub before: Pool,
    /// The pool to store.
    pub after: Pool,
}

/// A position change, applied only if the position still is `before` (`None`: no row yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionChange {
    /// The player.
    pub user_id: UserId,
    pub market_id: MarketId,
    /// The position as read.
    pub before: Option<Position>,
    /// The position to store.
    pub after: Position,
}

/// A new trade, with the position it changes when it is a sale (kept to unwind it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTrade {
    /// The trade, `pending`.
    pub trade: Trade,
    /// For a sale: the position before it.
    pub position_before: Option<Position>,
}

/// A trade's move to another state, applied only if it is still in `expected`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TradeUpdate {
    /// The trade.
    pub id: TradeId,
    /// The state it must be in.
    pub expected: TradeStatus,
    /// The state it moves to.
    pub status: TradeStatus,
    /// Shares traded as finally placed.
    pub shares: i64,
    /// Amount as finally placed.
    pub amount: i64,
    /// Fee as finally placed.
    pub fee: i64,
    /// The price after, as finally placed (ppm).
    pub price_after_ppm: u32,
    /// Why it failed.
    pub failure_reason: Option<String>,
    /// When it was settled (executed or failed).
    pub settled_at: Option<OffsetDateTime>,
}

/// A new wallet operation and the fingerprint of its request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewOperation {
    /// The operation as it starts (`prepared` or already `sent`).
    pub record: WalletOperationRecord,
    /// What the request's payload hashes to (same key, same payload).
    pub fingerprint: RequestFingerprint,
    /// When it is due, for operations a worker sends (compensations, redemptions).
    pub next_attempt_at: Option<OffsetDateTime>,
}

/// A wallet operation's move, applied only if it is still in `expected`; the step is
/// appended to its log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationUpdate {
    /// The operation.
    pub id: WalletOperationId,
    /// The state it must be in.
    pub expected: OperationState,
    /// The operation afterwards (state, attempts, answer fields, timestamps).
    pub record: WalletOperationRecord,
    /// When a worker should send it next (`prepared` operations only).
    pub next_attempt_at: Option<OffsetDateTime>,
    /// Who resolved it and what they found, for staff resolutions.
    pub resolution: Option<(String, String)>,
    /// The step appended to the log.
    pub step: WalletOperationStep,
}

/// A redemption's move, applied only if it is still in `expected`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedemptionUpdate {
    /// The redemption.
    pub id: RedemptionId,
    /// The state it must be in.
    pub expected: RedemptionStatus,
    /// The state it moves to.
    pub status: RedemptionStatus,
    /// When it was paid.
    pub paid_at: Option<OffsetDateTime>,
}

/// One atomic step of the trading write path for one operator.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TradingChange {
    /// A trade to insert.
    pub new_trade: Option<NewTrade>,
    /// A trade to move.
    pub trade: Option<TradeUpdate>,
    /// Operations to insert.
    pub new_operations: Vec<NewOperation>,
    /// An operation to move.
    pub operation: Option<OperationUpdate>,
    /// A pool to change.
    pub pool: Option<PoolChange>,
    /// A position to change.
    pub position: Option<PositionChange>,
    /// A redemption to move.
    pub redemption: Option<RedemptionUpdate>,
    /// Events caused by the step.
    pub events: Vec<NewEvent>,
}

/// A trade and the state it was in when read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenTrade {
    pub trade: Trade,
    /// For a sale: the position before it.
    pub position_before: Option<Position>,
}

/// The trading write path's store.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait TradeStore: Send + Sync {
    /// Applies `change` for `operator` atomically. `Conflict` if a precondition no longer
    /// holds; `Duplicate("client_order")` if the player already used the trade's client
    /// order id; `Duplicate("open_trade")` if the player already has an open trade on the
    /// market. Nothing is written unless everything is.
    async fn apply(&self, operator: OperatorId, change: &TradingChange) -> Result<(), StoreError>;

    /// A player's position in a market.
    async fn find_position(
        &self,
        operator: OperatorId,
        user: UserId,
        market: MarketId,
    ) -> Result<Option<PositionRecord>, StoreError>;
    /// The trade a player placed under `client_order_id`.
    async fn find_trade_by_client_order(
        &self,
        operator: OperatorId,
        user: UserId,
        client_order_id: &str,
    ) -> Result<Option<OpenTrade>, StoreError>;
    /// A trade.
    async fn find_trade(&self, operator: OperatorId, id: TradeId) -> Result<Option<OpenTrade>, StoreError>;
}
