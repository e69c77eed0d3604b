//! Persistence of what happens to markets after trading: platform staff's market list,
//! a market's resolution with its payouts (one transaction), the wallet worker's claims
//! and sweeps, and the reads of manual review. Changes of single operations, trades and
//! redemptions go through `TradeStore::apply`, like every other step of the write path.

use async_trait::async_trait;
use opinion_core::{MarketId, OperatorId, RedemptionId, WalletOperationId};
use opinion_market::MarketStatus;
use opinion_wallet::Currency;
use time::{Duration, OffsetDateTime};

use crate::model::{
    Market, MarketResolution, NewEvent, PositionRecord, Redemption, WalletOperationRecord, WalletOperationStep,
};
use crate::opinion::trading::ports::NewOperation;
use crate::ports::StoreError;

/// A position still to be paid out, with what the payout needs to know about its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedeemablePosition {
    pub operator_id: OperatorId,
    /// The player's id at the operator (what its wallet knows).
    pub external_user_id: String,
    /// The position as read.
    pub record: PositionRecord,
}

/// An operator that traded a market: it gets a resolution row and a `mini_app.market.resolved` event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketOperator {
    pub operator_id: OperatorId,
    /// Its currency (every payout is in it).
    pub currency: Currency,
}

/// Everything one market resolution writes, in one transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolutionPlan {
    /// The market as resolved.
    pub market: Market,
    /// The status it must still be in.
    pub expected: MarketStatus,
    /// Every unredeemed position of the market, as read; each is marked redeemed only if
    /// it still holds what was read.
    pub positions: Vec<RedeemablePosition>,
    /// One row per operator that traded the market.
    pub resolutions: Vec<MarketResolution>,
    /// One per position owed something.
    pub redemptions: Vec<Redemption>,
    /// The `prepared` redemption operations, one per redemption.
    pub operations: Vec<NewOperation>,
    /// `mini_app.market.resolved`, one per operator.
    pub events: Vec<NewEvent>,
}

/// Persistence of resolution, the wallet worker and review.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait SettlementStore: Send + Sync {
    /// Every market, newest first, at most `limit` (platform staff).
    async fn count_open_trades(&self, market: MarketId) -> Result<i64, StoreError>;
    /// The operators with a pool or a position on the market, with their currency.
    async fn market_operators(&self, market: MarketId) -> Result<Vec<MarketOperator>, StoreError>;
    /// Every not yet redeemed position on the market, of every operator.
    async fn unredeemed_positions(&self, market: MarketId) -> Result<Vec<RedeemablePosition>, StoreError>;
    /// Writes `plan` atomically, holding the market row so no trade can start on it
    /// meanwhile. `Conflict("market")` if the market left `plan.expected`;
    /// `Conflict("open_trade")` if a trade on it is pending or in manual review;
    /// `Conflict("position")` if a position changed or appeared since it was read.
    async fn resolve_market(&self, plan: &ResolutionPlan) -> Result<(), StoreError>;

    /// The operators with redemptions or compensations due at `now`, or Opinion
    /// operations whose answer is lost (sent longer ago than the operator's wallet
    /// timeout plus `grace`): the ones the wallet worker has something to do for, so
    /// operations still in flight cost it no transaction. The flight product's
    /// operations are its own worker's.
    async fn operators_with_wallet_work(
        &self,
        now: OffsetDateTime,
        grace: Duration,
    ) -> Result<Vec<OperatorId>, StoreError>;
    /// Claims at most `limit` of the operator's `prepared` redemption and compensation
    /// operations due at `now`, skipping those another worker holds, and marks them `sent`
    /// (attempts + 1, `sent_at = now`, a step logged) in the claiming transaction.
    async fn claim_due_operations(
        &self,
        operator: OperatorId,
        now: OffsetDateTime,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError>;
    /// At most `limit` of the operator's Opinion operations `sent` before `sent_before`
    /// and never answered: their call's answer was lost.
    async fn stale_sent_operations(
        &self,
        operator: OperatorId,
        sent_before: OffsetDateTime,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError>;

    /// Operations in manual review, oldest first, of one operator or all, at most `limit`.
    async fn operations_in_review(
        &self,
        operator: Option<OperatorId>,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError>;
    /// An operation found by its id alone (platform staff know no operator).
    async fn find_operation_by_id(&self, id: WalletOperationId) -> Result<Option<WalletOperationRecord>, StoreError>;
    /// An operation's step log, in order.
    async fn operation_steps(
        &self,
        operator: OperatorId,
        id: WalletOperationId,
    ) -> Result<Vec<WalletOperationStep>, StoreError>;
    /// A redemption.
    async fn find_redemption(&self, operator: OperatorId, id: RedemptionId) -> Result<Option<Redemption>, StoreError>;
}
