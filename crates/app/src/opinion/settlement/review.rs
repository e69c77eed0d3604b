//! Manual review, for platform staff only: operations whose wallet answer was ambiguous
//! (or lost) wait here; staff read the wallet's own log and record what it shows, and
//! the operation's business consequence follows in the same change. Operators only read
//! the outcome. A redemption found not applied ends `refused`: the money is still owed,
//! and staff arrange the payout with the operator outside the platform. The list shows
//! the flight product's operations too (they share the wallet engine), but only Opinion's
//! are resolved here: a flight operation's consequence (its ticket) is the flight
//! product's, resolved with its own command.

use opinion_core::{Label, OperatorId, WalletOperationId};
use opinion_market::{RedemptionStatus, TradeStatus};
use opinion_wallet::{OperationState, RemoteReference, StaffResolution, WalletFlow, WalletLogFinding};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::model::{NewEvent, Redemption, Trade, WalletOperationRecord, WalletOperationStep};
use crate::opinion::settlement::MarketSettlement;
use crate::opinion::settlement::wallet_worker::redemption_update;
use crate::opinion::trading::ports::{OpenTrade, OperationUpdate, TradingChange};
use crate::opinion::trading::wallet_call::{operation_update, restored};
use crate::ports::StoreError;

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
    "flight operations are resolved by `opinion admin flight review …`, which settles their ticket too";

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
        let resolution = staff_resolution(&decision)?;
        let record = self.operation(decision.operation_id).await?;
        let resolved = restored(&record).resolve(&resolution).map_err(|e| AppError::Conflict {
            code: ProblemCode::NotInReview,
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
        let word = if applied { "applied" } else { "not_applied" };
        let resolved_event = self.trading.manual_review_resolved(&next, word, now);
        match record.flow {
            WalletFlow::Buy | WalletFlow::Sell => {
                self.settle_reviewed_trade(&record, update, applied, resolved_event)
                    .await?;
            }
            WalletFlow::FlightTicketPurchase | WalletFlow::FlightTicketPayout | WalletFlow::FlightTicketRefund => {
                return Err(AppError::Conflict {
                    code: ProblemCode::ProductMismatch,
                    detail: FLIGHT_RESOLVED_ELSEWHERE.to_owned(),
                });
            }
            WalletFlow::Redemption | WalletFlow::BuyCompensation => {
                let mut change = self.redemption_consequence(&record, applied, now);
                change.operation = Some(update);
                change.events.push(resolved_event);
                match self.trading.ports.trades.apply(record.operator_id, &change).await {
                    Err(StoreError::Conflict(_)) => Err(AppError::Conflict {
                        code: ProblemCode::ChangedMeanwhile,
                        detail: "the operation changed meanwhile; show it again".to_owned(),
                    }),
                    other => other.map_err(AppError::from),
                }?;
            }
        }
        tracing::info!(wallet_operation_id = %record.id, resolution = word, by = %resolution.resolved_by.as_str(), "manual review resolved");
        Ok(next)
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
