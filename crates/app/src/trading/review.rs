//! Manual review, for platform staff only: operations whose wallet answer was ambiguous
//! (or lost) wait here; staff read the wallet's own log and record what it shows, and
//! the operation's business consequence follows in the same change. Operators only read
//! the outcome. A redemption found not applied ends `refused`: the money is still owed,
//! and staff arrange the payout with the operator outside the platform.

use opinion_core::{Label, OperatorId, WalletOperationId};
use opinion_market::{
    DebitedBuy, Position, Quote, RedemptionStatus, Side, TradeStatus, place_debited_buy, unwind_sale,
};
use opinion_wallet::{
    Amount, BuyCompensationMetadata, FlowMetadata, OperationState, RemoteReference, StaffResolution, WalletFlow,
    WalletLogFinding, WalletMutation, WalletOperation,
};
use time::OffsetDateTime;

use crate::AppError;
use crate::model::{Redemption, WalletOperationRecord, WalletOperationStep};
use crate::ports::{OpenTrade, PoolChange, PositionChange, RedemptionUpdate, StoreError, TradingChange};
use crate::trading::Settlement;
use crate::trading::wallet_call::{OperationSubject, operation_update};
use crate::trading::wallet_worker::trade_update;

/// What staff found in the wallet's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewFinding {
    /// The mutation was applied, under the wallet's reference.
    Applied {
        /// The wallet's reference of the mutation.
        remote_reference: String,
    },
    /// The mutation was not applied.
    NotApplied,
}

/// A staff resolution of one operation under review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewDecision {
    /// The operation.
    pub operation_id: WalletOperationId,
    /// What the wallet's log shows.
    pub finding: ReviewFinding,
    /// Who resolved it.
    pub resolved_by: String,
    /// What the wallet's log shows, in words (kept with the operation).
    pub note: String,
}

/// One operation under review with everything staff need to decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewCase {
    /// The operation.
    pub operation: WalletOperationRecord,
    /// Its step log.
    pub steps: Vec<WalletOperationStep>,
    /// Its trade (buy, sell, compensation).
    pub trade: Option<OpenTrade>,
    /// Its redemption.
    pub redemption: Option<Redemption>,
}

/// Most operations one review list returns.
const MAX_REVIEW_LIST: u16 = 200;

fn staff_resolution(decision: &ReviewDecision) -> Result<StaffResolution, AppError> {
    let finding = match &decision.finding {
        ReviewFinding::Applied { remote_reference } => WalletLogFinding::Applied {
            remote_reference: RemoteReference::parse(remote_reference)
                .map_err(|e| AppError::invalid("remote_reference", e))?,
        },
        ReviewFinding::NotApplied => WalletLogFinding::NotApplied,
    };
    Ok(StaffResolution {
        resolved_by: Label::parse(&decision.resolved_by).map_err(|e| AppError::invalid("by", e))?,
        finding,
        note: Label::parse(&decision.note).map_err(|e| AppError::invalid("note", e))?,
    })
}

impl Settlement {
    /// Operations in manual review, oldest first, of one operator or of all.
    pub async fn operations_in_review(
        &self,
        operator: Option<OperatorId>,
    ) -> Result<Vec<WalletOperationRecord>, AppError> {
        Ok(self.store.operations_in_review(operator, MAX_REVIEW_LIST).await?)
    }

    /// An operation with its steps and its trade or redemption.
    pub async fn review_case(&self, id: WalletOperationId) -> Result<ReviewCase, AppError> {
        let operation = self.operation(id).await?;
        let operator = operation.operator_id;
        let steps = self.store.operation_steps(operator, id).await?;
        let trade = match operation.trade_id {
            Some(trade) => self.trading.ports.store.find_trade(operator, trade).await?,
            None => None,
        };
        let redemption = match operation.redemption_id {
            Some(redemption) => self.store.find_redemption(operator, redemption).await?,
            None => None,
        };
        Ok(ReviewCase {
            operation,
            steps,
            trade,
            redemption,
        })
    }

    /// Records staff's finding on an operation in manual review and applies its
    /// consequence: a buy found applied is placed (or refunded when it cannot be), a sale
    /// found not applied is unwound, a redemption is paid or refused.
    pub async fn resolve_review(&self, decision: ReviewDecision) -> Result<WalletOperationRecord, AppError> {
        let resolution = staff_resolution(&decision)?;
        let record = self.operation(decision.operation_id).await?;
        let resolved = WalletOperation::restore(
            record.flow,
            record.idempotency_key.clone(),
            record.state,
            record.attempts,
        )
        .resolve(&resolution)
        .map_err(|e| AppError::Conflict {
            code: "not_in_review",
            detail: e.to_string(),
        })?;
        let now = self.trading.ports.clock.now();
        let applied = resolved.state() == OperationState::ResolvedApplied;
        let mut next = record.clone();
        next.state = resolved.state();
        next.resolved_at = Some(now);
        next.detail = Some(resolution.note.as_str().to_owned());
        if let WalletLogFinding::Applied { remote_reference } = &resolution.finding {
            next.remote_reference = Some(remote_reference.as_str().to_owned());
        }
        let mut update = operation_update(record.state, next.clone(), now);
        update.resolution = Some((
            resolution.resolved_by.as_str().to_owned(),
            resolution.note.as_str().to_owned(),
        ));
        let mut change = self.review_consequence(&record, applied, now).await?;
        change.operation = Some(update);
        let word = if applied { "applied" } else { "not_applied" };
        change
            .events
            .push(self.trading.manual_review_resolved(&next, word, now));
        match self.trading.ports.store.apply(record.operator_id, &change).await {
            Err(StoreError::Conflict(_)) => Err(AppError::Conflict {
                code: "changed_meanwhile",
                detail: "the operation or its trade changed meanwhile; show it again".to_owned(),
            }),
            other => other.map_err(AppError::from),
        }?;
        tracing::info!(wallet_operation_id = %record.id, resolution = word, by = %resolution.resolved_by.as_str(), "manual review resolved");
        Ok(next)
    }

    async fn operation(&self, id: WalletOperationId) -> Result<WalletOperationRecord, AppError> {
        self.store
            .find_operation_by_id(id)
            .await?
            .ok_or(AppError::NotFound("wallet operation"))
    }

    /// What the finding means for the operation's trade or redemption.
    async fn review_consequence(
        &self,
        record: &WalletOperationRecord,
        applied: bool,
        now: OffsetDateTime,
    ) -> Result<TradingChange, AppError> {
        let mut change = TradingChange::default();
        match record.flow {
            WalletFlow::Redemption => {
                if let Some(id) = record.redemption_id {
                    let status = if applied {
                        RedemptionStatus::Paid
                    } else {
                        RedemptionStatus::Refused
                    };
                    change.redemption = Some(RedemptionUpdate {
                        id,
                        expected: RedemptionStatus::ManualReview,
                        status,
                        paid_at: applied.then_some(now),
                    });
                    if applied {
                        change.events.push(self.trading.redemption_paid(record, now));
                    }
                }
            }
            WalletFlow::Buy | WalletFlow::Sell => {
                let open = self.reviewed_trade(record).await?;
                match (record.flow, applied) {
                    (WalletFlow::Buy, true) => self.place_reviewed_buy(record, &open, now, &mut change).await?,
                    (WalletFlow::Sell, false) => self.unwind_reviewed_sale(&open, now, &mut change).await?,
                    (_, true) => {
                        change.trade = Some(trade_update(&open.trade, TradeStatus::Executed, None, Some(now)));
                        change.events.push(self.trading.trade_executed(&open.trade, now));
                    }
                    (_, false) => fail_trade(self, &open, "wallet_not_applied", now, &mut change),
                }
            }
            WalletFlow::BuyCompensation => {}
        }
        Ok(change)
    }

    async fn reviewed_trade(&self, record: &WalletOperationRecord) -> Result<OpenTrade, AppError> {
        let trade = record
            .trade_id
            .ok_or_else(|| AppError::Internal(format!("{} operation {} has no trade", record.flow, record.id)))?;
        self.trading
            .ports
            .store
            .find_trade(record.operator_id, trade)
            .await?
            .ok_or_else(|| AppError::Internal(format!("trade {trade} of operation {} is missing", record.id)))
    }

    /// A debit found applied: placed like any applied debit, or refunded when it cannot be.
    async fn place_reviewed_buy(
        &self,
        record: &WalletOperationRecord,
        open: &OpenTrade,
        now: OffsetDateTime,
        change: &mut TradingChange,
    ) -> Result<(), AppError> {
        let trade = &open.trade;
        let store = &self.trading.ports.store;
        let market = store
            .find_operator_market(trade.operator_id, trade.market_id)
            .await?
            .ok_or(AppError::NotFound("market"))?;
        let buy = DebitedBuy {
            outcome: trade.outcome,
            order_kind: trade.order_kind,
            shares: trade.shares,
            debited: trade.amount,
        };
        match place_debited_buy(market.market.status, &market.pool, buy, market.market.fee) {
            Ok(quote) => {
                let held = store
                    .find_position(trade.operator_id, trade.user_id, trade.market_id)
                    .await?;
                let before = held.map(|p| p.position);
                let after = before
                    .unwrap_or_default()
                    .apply(&quote)
                    .map_err(|e| AppError::Internal(e.to_string()))?;
                let mut update = trade_update(trade, TradeStatus::Executed, None, Some(now));
                update.shares = quote.shares;
                update.amount = quote.amount;
                update.fee = quote.fee;
                update.price_after_ppm = quote.price_after.ppm();
                change.trade = Some(update);
                change.pool = Some(PoolChange {
                    market_id: trade.market_id,
                    before: market.pool,
                    after: quote.pool_after,
                });
                change.position = Some(PositionChange {
                    user_id: trade.user_id,
                    market_id: trade.market_id,
                    before,
                    after,
                });
                let executed = crate::model::Trade {
                    shares: quote.shares,
                    amount: quote.amount,
                    fee: quote.fee,
                    price_after: quote.price_after,
                    ..trade.clone()
                };
                change.events.push(self.trading.trade_executed(&executed, now));
            }
            Err(refusal) => {
                fail_trade(self, open, refusal.code(), now, change);
                change.new_operations.push(self.compensation(record, open, now)?);
            }
        }
        Ok(())
    }

    /// The `prepared` buy compensation giving back a debit that cannot be placed.
    fn compensation(
        &self,
        record: &WalletOperationRecord,
        open: &OpenTrade,
        now: OffsetDateTime,
    ) -> Result<crate::ports::NewOperation, AppError> {
        let trade = &open.trade;
        let amount = Amount::new(record.amount).map_err(|e| AppError::Internal(e.to_string()))?;
        let metadata = FlowMetadata::BuyCompensation(BuyCompensationMetadata {
            market_id: trade.market_id,
            trade_id: trade.id,
            compensated_operation_id: record.id,
        });
        let mutation = WalletMutation::new(record.external_user_id.clone(), amount, record.currency, metadata);
        let subject = OperationSubject {
            operator_id: record.operator_id,
            user_id: record.user_id,
            market_id: trade.market_id,
            trade_id: Some(trade.id),
            redemption_id: None,
        };
        Ok(self
            .trading
            .new_operation(subject, &mutation, OperationState::Prepared, now))
    }

    /// A sale whose credit was found not applied: its shares go back to the pool and the
    /// position is restored to what it was before the sale.
    async fn unwind_reviewed_sale(
        &self,
        open: &OpenTrade,
        now: OffsetDateTime,
        change: &mut TradingChange,
    ) -> Result<(), AppError> {
        let trade = &open.trade;
        let store = &self.trading.ports.store;
        let market = store
            .find_operator_market(trade.operator_id, trade.market_id)
            .await?
            .ok_or(AppError::NotFound("market"))?;
        let sale = Quote {
            outcome: trade.outcome,
            side: Side::Sell,
            shares: trade.shares,
            amount: trade.amount,
            fee: trade.fee,
            price_before: trade.price_before,
            price_after: trade.price_after,
            pool_after: market.pool,
        };
        let pool_after = unwind_sale(&market.pool, &sale).map_err(|e| AppError::Internal(e.to_string()))?;
        let restored: Position = open
            .position_before
            .ok_or_else(|| AppError::Internal(format!("sale {} without its position before", trade.id)))?;
        let current = store
            .find_position(trade.operator_id, trade.user_id, trade.market_id)
            .await?
            .map(|p| p.position);
        change.pool = Some(PoolChange {
            market_id: trade.market_id,
            before: market.pool,
            after: pool_after,
        });
        change.position = Some(PositionChange {
            user_id: trade.user_id,
            market_id: trade.market_id,
            before: current,
            after: restored,
        });
        fail_trade(self, open, "wallet_not_applied", now, change);
        Ok(())
    }
}

/// Ends a reviewed trade `failed` with `reason`.
fn fail_trade(
    settlement: &Settlement,
    open: &OpenTrade,
    reason: &str,
    now: OffsetDateTime,
    change: &mut TradingChange,
) {
    change.trade = Some(trade_update(
        &open.trade,
        TradeStatus::Failed,
        Some(reason.to_owned()),
        Some(now),
    ));
    change
        .events
        .push(settlement.trading.trade_failed(&open.trade, reason, now));
}
