//! Manual review, for platform staff only: operations whose wallet answer was ambiguous
//! (or lost) wait here; staff read the wallet's own log and record what it shows, and
//! the operation's business consequence follows in the same change. Operators only read
//! the outcome. A redemption found not applied ends `refused`: the money is still owed,
//! and staff arrange the payout with the operator outside the platform. The list shows
//! the flight product's operations too (they share the wallet engine), but only Opinion's
//! are resolved here: a flight operation's consequence (its ticket) is the flight
//! product's (`FlightGame::resolve_review`). The finding itself is checked and recorded
//! the same way for both (`wallet::review`).

use opinion_core::{EventId, OperatorId, WalletOperationId};
use opinion_market::{RedemptionStatus, TradeStatus};
use opinion_wallet::{Product, WalletFlow};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::model::{NewEvent, Redemption, Trade, WalletOperationRecord, WalletOperationStep};
use crate::opinion::settlement::MarketSettlement;
use crate::opinion::settlement::wallet_worker::redemption_update;
use crate::opinion::trading::ports::{OpenTrade, OperationUpdate, TradingChange};
use crate::ports::StoreError;
use crate::wallet::review::{ReviewDecision, ReviewedOperation, review_operation};

/// One operation under review with everything staff need to decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewCase {
    pub operation: WalletOperationRecord,
    /// Its step log.
    pub steps: Vec<WalletOperationStep>,
    /// Its trade (buy, sell, compensation).
    pub trade: Option<OpenTrade>,
    pub redemption: Option<Redemption>,
}

/// The failure reason of a trade whose wallet operation staff found not applied.
const NOT_APPLIED: &str = "wallet_not_applied";

/// Why a flight operation is not resolved here.
const FLIGHT_RESOLVED_ELSEWHERE: &str =
    "a flight operation is resolved by the flight product, which settles its ticket too";

/// Most operations one review list returns.
const MAX_REVIEW_LIST: u16 = 200;

impl MarketSettlement {
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
            Some(trade) => self.trading.ports.trades.find_trade(operator, trade).await?,
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
    /// found not applied is unwound, a redemption is paid or refused. A flight
    /// operation is refused (`product_mismatch`) and nothing is written.
    pub async fn resolve_review(&self, decision: ReviewDecision) -> Result<WalletOperationRecord, AppError> {
        let record = self.operation(decision.operation_id).await?;
        if record.flow.product() != Product::Opinion {
            return Err(AppError::Conflict {
                code: ProblemCode::ProductMismatch,
                detail: FLIGHT_RESOLVED_ELSEWHERE.to_owned(),
            });
        }
        let ports = &self.trading.ports;
        let now = ports.clock.now();
        let reviewed = review_operation(&record, &decision, EventId::from_ulid(ports.random.ulid()), now)?;
        let word = reviewed.word();
        let ReviewedOperation {
            resolved,
            update,
            applied,
            event,
        } = reviewed;
        if matches!(record.flow, WalletFlow::Buy | WalletFlow::Sell) {
            self.settle_reviewed_trade(&record, update, applied, event).await?;
        } else {
            let mut change = self.redemption_consequence(&record, applied, now);
            change.operation = Some(update);
            change.events.push(event);
            match ports.trades.apply(record.operator_id, &change).await {
                Err(StoreError::Conflict(_)) => Err(AppError::Conflict {
                    code: ProblemCode::ChangedMeanwhile,
                    detail: "the operation changed meanwhile; show it again".to_owned(),
                }),
                other => other.map_err(AppError::from),
            }?;
        }
        tracing::info!(wallet_operation_id = %record.id, resolution = word, by = %decision.resolved_by, "manual review resolved");
        Ok(resolved)
    }

    async fn operation(&self, id: WalletOperationId) -> Result<WalletOperationRecord, AppError> {
        self.store
            .find_operation_by_id(id)
            .await?
            .ok_or(AppError::NotFound("wallet operation"))
    }

    /// What the finding means for a redemption (a compensation has no consequence beyond
    /// its own state: its trade already failed).
    fn redemption_consequence(
        &self,
        record: &WalletOperationRecord,
        applied: bool,
        now: OffsetDateTime,
    ) -> TradingChange {
        let mut change = TradingChange::default();
        if let (WalletFlow::Redemption, Some(id)) = (record.flow, record.redemption_id) {
            let status = if applied {
                RedemptionStatus::Paid
            } else {
                RedemptionStatus::Refused
            };
            change.redemption = Some(redemption_update(id, RedemptionStatus::ManualReview, status, now));
            change.events.push(if applied {
                self.trading.redemption_processed(record, now)
            } else {
                self.trading.redemption_failed(record, NOT_APPLIED, now)
            });
        }
        change
    }

    /// A reviewed buy or sale ends exactly as it would have had the wallet answered
    /// definitely: a debit found applied is placed (or given back when it cannot be), a
    /// sale found not applied is unwound, the others executed or failed.
    async fn settle_reviewed_trade(
        &self,
        record: &WalletOperationRecord,
        update: OperationUpdate,
        applied: bool,
        resolved_event: NewEvent,
    ) -> Result<Trade, AppError> {
        let trade_id = record
            .trade_id
            .ok_or_else(|| AppError::Internal(format!("{} operation {} has no trade", record.flow, record.id)))?;
        let trade = self
            .trading
            .ports
            .trades
            .find_trade(record.operator_id, trade_id)
            .await?
            .ok_or_else(|| AppError::Internal(format!("trade {trade_id} of operation {} is missing", record.id)))?
            .trade;
        let (trading, expected, also) = (&self.trading, TradeStatus::ManualReview, vec![resolved_event]);
        match (record.flow, applied) {
            (WalletFlow::Buy, true) => trading.place_buy(trade, update, expected, also).await,
            (WalletFlow::Sell, true) => trading.execute_sale(trade, update, expected, also).await,
            (WalletFlow::Sell, false) => trading.unwind_sale(trade, update, NOT_APPLIED, expected, also).await,
            _ => trading.fail_trade(trade, update, NOT_APPLIED, expected, also).await,
        }
    }
}
