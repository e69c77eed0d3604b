//! A buy after its wallet answered: placed at the pool when the debit applied (or given
//! back by a compensation when it cannot be placed), failed when refused or never sent,
//! in manual review when ambiguous. Each ending is one atomic `TradingChange` with its
//! events; placing retries when the pool or position changed under it.

use opinion_market::{DebitedBuy, Position, TradeStatus, place_debited_buy};
use opinion_wallet::{Amount, BuyCompensationMetadata, Classification, FlowMetadata, OperationState, WalletMutation};

use crate::error::AppError;
use crate::model::{NewEvent, Trade};
use crate::opinion::trading::Trading;
use crate::opinion::trading::ports::{OperationUpdate, PoolChange, PositionChange, TradeUpdate, TradingChange};
use crate::opinion::trading::wallet_call::{OperationSubject, restored};
use crate::ports::{ChangedRecord, StoreError, in_one_transaction};

/// How often placing a debited buy is tried again when the pool changed under it.
const PLACEMENT_ATTEMPTS: usize = 16;

impl Trading {
    /// Ends a buy whose trade is in `expected` by what its debit's answer means. The functions
    /// that end a trade take `also`: events committed with the step besides the trade's own
    /// (a staff resolution's `mini_app.wallet_operation.manual_review_resolved`).
    pub(crate) async fn settle_buy(
        &self,
        trade: Trade,
        update: OperationUpdate,
        classification: &Classification,
        expected: TradeStatus,
    ) -> Result<Trade, AppError> {
        match classification {
            Classification::Applied { .. } => self.place_buy(trade, update, expected, Vec::new()).await,
            Classification::Rejected { code } => {
                self.fail_trade(trade, update, code.as_str(), expected, Vec::new())
                    .await
            }
            Classification::Ambiguous { .. } => self.review_trade(trade, update, expected).await,
            Classification::NotSent => {
                let update = abandoned(update)?;
                self.fail_trade(trade, update, "wallet_unreachable", expected, Vec::new())
                    .await
            }
        }
    }

    /// Places an applied debit at the pool as it is now, or fails the trade and prepares
    /// the compensation that gives the debit back. Each try reads the pool and the
    /// position (asked for together) and writes the step in one transaction.
    pub(crate) async fn place_buy(
        &self,
        trade: Trade,
        update: OperationUpdate,
        expected: TradeStatus,
        also: Vec<NewEvent>,
    ) -> Result<Trade, AppError> {
        for _ in 0..PLACEMENT_ATTEMPTS {
            let placed = in_one_transaction(
                self.ports.transactions.as_ref(),
                self.try_placing_buy(&trade, &update, expected, &also),
            )
            .await?;
            if let Some(ended) = placed {
                return Ok(ended);
            }
        }
        Err(StoreError::Conflict(ChangedRecord::Pool).into())
    }

    /// One try at placing a debited buy (or compensating it when it cannot be placed);
    /// `None` when the pool or the position changed under it.
    async fn try_placing_buy(
        &self,
        trade: &Trade,
        update: &OperationUpdate,
        expected: TradeStatus,
        also: &[NewEvent],
    ) -> Result<Option<Trade>, AppError> {
        let (market, position) = tokio::join!(
            self.ports
                .markets
                .find_operator_market(trade.operator_id, trade.market_id),
            self.ports
                .trades
                .find_position(trade.operator_id, trade.user_id, trade.market_id),
        );
        let market = market?.ok_or(AppError::NotFound("market"))?;
        let buy = DebitedBuy {
            outcome: trade.outcome,
            order_kind: trade.order_kind,
            shares: trade.shares,
            debited: trade.amount,
        };
        let placed = match place_debited_buy(market.market.status, &market.pool, buy, market.market.fee) {
            Ok(placed) => placed,
            Err(refusal) => {
                tracing::warn!(trade_id = %trade.id, reason = %refusal, "debited buy cannot be placed; compensating");
                let compensated = self
                    .compensate_buy(trade.clone(), update.clone(), refusal.code(), expected, also.to_vec())
                    .await?;
                return Ok(Some(compensated));
            }
        };
        let before = position?.map(|record| record.position);
        let after = before
            .unwrap_or_default()
            .apply(&placed)
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let now = self.ports.clock.now();
        let executed = Trade {
            shares: placed.shares,
            amount: placed.amount,
            fee: placed.fee,
            price_after: placed.price_after,
            status: TradeStatus::Executed,
            settled_at: Some(now),
            ..trade.clone()
        };
        let change = TradingChange {
            trade: Some(trade_update(&executed, expected)),
            operation: Some(update.clone()),
            pool: Some(PoolChange {
                market_id: trade.market_id,
                before: market.pool,
                after: placed.pool_after,
            }),
            position: Some(position_change(trade, before, after)),
            events: [vec![self.trade_processed(&executed, now)], also.to_vec()].concat(),
            ..TradingChange::default()
        };
        match self.ports.trades.apply(trade.operator_id, &change).await {
            Ok(()) => Ok(Some(executed)),
            Err(StoreError::Conflict(what)) => {
                tracing::debug!(%what, "placing again: changed concurrently");
                Ok(None)
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Fails a trade whose debit applied but cannot be placed, and prepares its
    /// compensation (a worker sends it, retrying with its one key until definite): the
    /// trade's `mini_app.trade.failed` and `mini_app.trade.compensation_required` go out
    /// with it.
    async fn compensate_buy(
        &self,
        trade: Trade,
        update: OperationUpdate,
        reason: &str,
        expected: TradeStatus,
        also: Vec<NewEvent>,
    ) -> Result<Trade, AppError> {
        let now = self.ports.clock.now();
        let metadata = FlowMetadata::BuyCompensation(BuyCompensationMetadata {
            market_id: trade.market_id,
            trade_id: trade.id,
            compensated_operation_id: update.id,
        });
        let amount = Amount::new(trade.amount).map_err(|e| AppError::Internal(e.to_string()))?;
        let mutation = WalletMutation::new(&trade.external_user_id, amount, trade.currency, metadata)
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let subject = OperationSubject {
            operator_id: trade.operator_id,
            user_id: trade.user_id,
            market_id: trade.market_id,
            trade_id: Some(trade.id),
            redemption_id: None,
        };
        let compensation = self.new_operation(subject, &mutation, OperationState::Prepared, now);
        let failed = failed_trade(trade, reason, now);
        let required = self.trade_compensation_required(&failed, &compensation.record, update.id, reason, now);
        let change = TradingChange {
            trade: Some(trade_update(&failed, expected)),
            operation: Some(update),
            new_operations: vec![compensation],
            events: [vec![self.trade_failed(&failed, reason, now), required], also].concat(),
            ..TradingChange::default()
        };
        self.ports.trades.apply(failed.operator_id, &change).await?;
        Ok(failed)
    }

    /// Fails a trade (nothing moved for the player), recording the operation's answer.
    pub(crate) async fn fail_trade(
        &self,
        trade: Trade,
        update: OperationUpdate,
        reason: &str,
        expected: TradeStatus,
        also: Vec<NewEvent>,
    ) -> Result<Trade, AppError> {
        let now = self.ports.clock.now();
        let failed = failed_trade(trade, reason, now);
        let change = TradingChange {
            trade: Some(trade_update(&failed, expected)),
            operation: Some(update),
            events: [vec![self.trade_failed(&failed, reason, now)], also].concat(),
            ..TradingChange::default()
        };
        self.ports.trades.apply(failed.operator_id, &change).await?;
        Ok(failed)
    }

    /// Puts a trade whose wallet answer was ambiguous in manual review (contract rule 4).
    pub(crate) async fn review_trade(
        &self,
        trade: Trade,
        update: OperationUpdate,
        expected: TradeStatus,
    ) -> Result<Trade, AppError> {
        let now = self.ports.clock.now();
        let in_review = Trade {
            status: TradeStatus::ManualReview,
            ..trade
        };
        tracing::warn!(trade_id = %in_review.id, detail = ?update.record.detail, "ambiguous wallet answer: manual review");
        let change = TradingChange {
            trade: Some(trade_update(&in_review, expected)),
            events: vec![self.manual_review_required(&update.record, now)],
            operation: Some(update),
            ..TradingChange::default()
        };
        self.ports.trades.apply(in_review.operator_id, &change).await?;
        Ok(in_review)
    }
}

/// The trade failed for `reason` at `now`.
pub(crate) fn failed_trade(trade: Trade, reason: &str, now: time::OffsetDateTime) -> Trade {
    Trade {
        status: TradeStatus::Failed,
        failure_reason: Some(reason.to_owned()),
        settled_at: Some(now),
        ..trade
    }
}

/// The update moving a trade from `expected` to how `trade` now is.
pub(crate) fn trade_update(trade: &Trade, expected: TradeStatus) -> TradeUpdate {
    TradeUpdate {
        id: trade.id,
        expected,
        status: trade.status,
        shares: trade.shares,
        amount: trade.amount,
        fee: trade.fee,
        price_after_ppm: trade.price_after.ppm(),
        failure_reason: trade.failure_reason.clone(),
        settled_at: trade.settled_at,
    }
}

/// The change of the trade's player's position in its market.
pub(crate) fn position_change(trade: &Trade, before: Option<Position>, after: Position) -> PositionChange {
    PositionChange {
        user_id: trade.user_id,
        market_id: trade.market_id,
        before,
        after,
    }
}

/// An operation whose call never left, given up (a primary is not sent again later).
fn abandoned(mut update: OperationUpdate) -> Result<OperationUpdate, AppError> {
    let record = &update.record;
    let operation = restored(record)
        .abandon()
        .map_err(|e| AppError::Internal(e.to_string()))?;
    update.record.state = operation.state();
    update.step.state = operation.state();
    Ok(update)
}
