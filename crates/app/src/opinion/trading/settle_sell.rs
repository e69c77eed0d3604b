//! A sale after its wallet answered: executed when the credit applied, unwound (shares
//! back to the pool, the position as it was) when it was refused or never sent, in
//! manual review when ambiguous.

use opinion_market::{TradeStatus, unwind_sale};
use opinion_wallet::Classification;

use crate::error::AppError;
use crate::model::{NewEvent, Trade};
use crate::opinion::trading::Trading;
use crate::opinion::trading::ports::{OperationUpdate, PoolChange, TradingChange};
use crate::opinion::trading::settle_buy::{failed_trade, position_change, trade_update};
use crate::ports::{ChangedRecord, StoreError};

/// How often unwinding a sale is tried again when the pool changed under it.
const UNWIND_ATTEMPTS: usize = 16;

impl Trading {
    /// Ends a sale whose trade is in `expected` by what its credit's answer means.
    pub(crate) async fn settle_sell(
        &self,
        trade: Trade,
        update: OperationUpdate,
        classification: &Classification,
        expected: TradeStatus,
    ) -> Result<Trade, AppError> {
        match classification {
            Classification::Applied { .. } => self.execute_sale(trade, update, expected, Vec::new()).await,
            Classification::Rejected { code } => {
                self.unwind_sale(trade, update, code.as_str(), expected, Vec::new())
                    .await
            }
            Classification::Ambiguous { .. } => self.review_trade(trade, update, expected).await,
            Classification::NotSent => {
                self.unwind_sale(trade, update, "wallet_unreachable", expected, Vec::new())
                    .await
            }
        }
    }

    /// The credit applied: the sale (already in pool and position) is done.
    pub(crate) async fn execute_sale(
        &self,
        trade: Trade,
        update: OperationUpdate,
        expected: TradeStatus,
        also: Vec<NewEvent>,
    ) -> Result<Trade, AppError> {
        let now = self.ports.clock.now();
        let executed = Trade {
            status: TradeStatus::Executed,
            settled_at: Some(now),
            ..trade
        };
        let change = TradingChange {
            trade: Some(trade_update(&executed, expected)),
            operation: Some(update),
            events: [vec![self.trade_processed(&executed, now)], also].concat(),
            ..TradingChange::default()
        };
        self.ports.trades.apply(executed.operator_id, &change).await?;
        Ok(executed)
    }

    /// The credit did not apply: the shares go back to the pool and the position is
    /// restored to what it was before the sale (nothing else can have changed it: the sale
    /// held the player's one open trade on the market).
    pub(crate) async fn unwind_sale(
        &self,
        trade: Trade,
        update: OperationUpdate,
        reason: &str,
        expected: TradeStatus,
        also: Vec<NewEvent>,
    ) -> Result<Trade, AppError> {
        let open = self
            .ports
            .trades
            .find_trade(trade.operator_id, trade.id)
            .await?
            .ok_or(AppError::NotFound("trade"))?;
        let restored = open.position_before.unwrap_or_default();
        for _ in 0..UNWIND_ATTEMPTS {
            let market = self
                .ports
                .markets
                .find_operator_market(trade.operator_id, trade.market_id)
                .await?
                .ok_or(AppError::NotFound("market"))?;
            let current = self
                .ports
                .trades
                .find_position(trade.operator_id, trade.user_id, trade.market_id)
                .await?
                .map(|record| record.position);
            let sale = opinion_market::Quote {
                outcome: trade.outcome,
                side: trade.side,
                shares: trade.shares,
                amount: trade.amount,
                fee: trade.fee,
                price_before: trade.price_before,
                price_after: trade.price_after,
                pool_after: market.pool,
            };
            let pool_after = unwind_sale(&market.pool, &sale).map_err(|e| AppError::Internal(e.to_string()))?;
            let now = self.ports.clock.now();
            let failed = failed_trade(trade.clone(), reason, now);
            let change = TradingChange {
                trade: Some(trade_update(&failed, expected)),
                operation: Some(update.clone()),
                pool: Some(PoolChange {
                    market_id: trade.market_id,
                    before: market.pool,
                    after: pool_after,
                }),
                position: Some(position_change(&trade, current, restored)),
                events: [vec![self.trade_failed(&failed, reason, now)], also.clone()].concat(),
                ..TradingChange::default()
            };
            match self.ports.trades.apply(trade.operator_id, &change).await {
                Ok(()) => return Ok(failed),
                Err(StoreError::Conflict(what)) => tracing::debug!(%what, "unwinding again: changed concurrently"),
                Err(other) => return Err(other.into()),
            }
        }
        Err(StoreError::Conflict(ChangedRecord::Pool).into())
    }
}
