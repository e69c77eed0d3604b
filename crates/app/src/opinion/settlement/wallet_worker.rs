//! The wallet worker: one pass sends every due redemption and buy compensation (claimed
//! with `SKIP LOCKED`, so several instances share the work) and recovers operations whose
//! call's answer was lost (sent longer ago than the wallet's timeout plus a grace period),
//! by the wallet domain's `recover_within`. Both are money owed to the player: one the
//! wallet refuses, or that is still unsent after the settings' retry limit, goes to
//! manual review with its amount instead of being dropped or retried forever. Each answer
//! and its business consequence is stored as one `TradingChange`. `run_wallet_pass` is
//! the use case; the binary calls it in a loop.

use opinion_core::{OperatorId, RedemptionId};
use opinion_market::{RedemptionStatus, TradeStatus};
use opinion_wallet::{Amount, OperationState, WalletFlow, WalletMutation, validate_metadata};
use time::{Duration, OffsetDateTime};

use crate::error::AppError;
use crate::model::WalletOperationRecord;
use crate::opinion::settlement::MarketSettlement;
use crate::opinion::settlement::WorkerSettings;
use crate::opinion::trading::ports::{OperationUpdate, RedemptionUpdate, TradeUpdate, TradingChange};
use crate::opinion::trading::settle_buy::trade_update;
use crate::opinion::trading::wallet_call::{operation_update, restored};
use crate::ports::StoreError;
use crate::wallet::ports::WalletAdapterTarget;

/// What one pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkerPass {
    /// Operations sent to a wallet.
    pub sent: usize,
    /// Lost answers recovered (to manual review or to be sent again).
    pub recovered: usize,
    /// Operators with due work but no wallet adapter configured.
    pub without_wallet: usize,
}

/// How long a redemption or compensation that must be sent again waits: the base delay
/// doubled per attempt already made, at most the cap.
pub fn retry_delay(settings: &WorkerSettings, attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(20);
    let delay = settings.retry_base * 2_i32.pow(doublings);
    delay.min(settings.retry_cap)
}

/// The update moving redemption `id` from `expected` to `status` at `now` (paid then, if paid).
pub(crate) fn redemption_update(
    id: RedemptionId,
    expected: RedemptionStatus,
    status: RedemptionStatus,
    now: OffsetDateTime,
) -> RedemptionUpdate {
    RedemptionUpdate {
        id,
        expected,
        status,
        paid_at: (status == RedemptionStatus::Paid).then_some(now),
    }
}

/// The mutation a stored operation sends (the same key and payload every time).
pub(crate) fn mutation_of(record: &WalletOperationRecord) -> Result<WalletMutation, AppError> {
    let corrupt = |what: String| AppError::Internal(format!("wallet operation {}: {what}", record.id));
    let amount = Amount::new(record.amount).map_err(|e| corrupt(e.to_string()))?;
    let metadata = validate_metadata(record.flow, &record.metadata).map_err(|e| corrupt(e.to_string()))?;
    WalletMutation::new(record.external_user_id.clone(), amount, record.currency, metadata)
        .map_err(|e| corrupt(e.to_string()))
}

impl MarketSettlement {
    /// One pass of the wallet worker at the clock's `now`, over every operator with work.
    /// A failure of one operation is logged and leaves it for the sweeper; a store that
    /// cannot be read ends the pass with the error.
    pub async fn run_wallet_pass(&self) -> Result<WorkerPass, AppError> {
        let now = self.trading.ports.clock.now();
        let mut pass = WorkerPass::default();
        for operator in self.store.operators_with_wallet_work(now, self.worker.grace).await? {
            let Some(target) = self.trading.ports.wallet_adapters.find_wallet_target(operator).await? else {
                tracing::warn!(operator_id = %operator, "wallet operations are due but the operator has no wallet adapter");
                pass.without_wallet += 1;
                continue;
            };
            pass.recovered += self.sweep_lost_answers(&target, now).await?;
            pass.sent += self.send_due(&target, now).await?;
        }
        Ok(pass)
    }

    async fn send_due(&self, target: &WalletAdapterTarget, now: OffsetDateTime) -> Result<usize, AppError> {
        let claimed = self
            .store
            .claim_due_operations(target.operator_id, now, self.worker.batch_size)
            .await?;
        let count = claimed.len();
        for record in claimed {
            if let Err(error) = self.send_claimed(target, &record).await {
                tracing::error!(wallet_operation_id = %record.id, %error, "sending a due wallet operation failed");
            }
        }
        Ok(count)
    }

    async fn send_claimed(&self, target: &WalletAdapterTarget, record: &WalletOperationRecord) -> Result<(), AppError> {
        let mutation = mutation_of(record)?;
        let (_, update) = self
            .trading
            .call_wallet(target, &mutation, record, self.worker.retry_limit)
            .await?;
        let change = self.answer_change(update);
        self.apply(record.operator_id, &change).await
    }

    /// The answer to a worker-sent operation with its business consequence: a redemption
    /// paid, or in review with `mini_app.payout.pending`; any operation in review (refused,
    /// out of retries, a reused key, a redemption's ambiguous answer) raises
    /// `mini_app.wallet_operation.manual_review_required` with the amount owed.
    fn answer_change(&self, mut update: OperationUpdate) -> TradingChange {
        let now = update.step.at;
        let record = update.record.clone();
        let mut change = TradingChange::default();
        match record.state {
            OperationState::Prepared => {
                update.next_attempt_at = Some(now + retry_delay(&self.worker, record.attempts));
            }
            OperationState::Applied => {
                if record.flow == WalletFlow::Redemption {
                    change.redemption = record
                        .redemption_id
                        .map(|id| redemption_update(id, RedemptionStatus::Pending, RedemptionStatus::Paid, now));
                    change.events.push(self.trading.redemption_processed(&record, now));
                }
            }
            OperationState::ManualReview => self.to_review(&mut change, &record, now),
            other => tracing::error!(
                wallet_operation_id = %record.id,
                flow = %record.flow,
                state = %other,
                "a worker-sent operation cannot end in this state"
            ),
        }
        change.operation = Some(update);
        change
    }

    /// Puts a worker-sent operation in manual review: a redemption with it, and the
    /// events that tell the operator the money is owed but waits for staff.
    fn to_review(&self, change: &mut TradingChange, record: &WalletOperationRecord, now: OffsetDateTime) {
        tracing::warn!(
            wallet_operation_id = %record.id,
            flow = %record.flow,
            review_reason = ?record.review_reason,
            detail = ?record.detail,
            amount = record.amount,
            "money owed to the player waits for staff"
        );
        change.events.push(self.trading.manual_review_required(record, now));
        if record.flow == WalletFlow::Redemption {
            change.redemption = record
                .redemption_id
                .map(|id| redemption_update(id, RedemptionStatus::Pending, RedemptionStatus::ManualReview, now));
            change.events.push(self.trading.payout_pending(record, now));
        }
    }

    /// Recovers the operator's operations whose answer was lost: a primary goes to manual
    /// review with its trade or redemption, a compensation is sent again with its key
    /// (or, out of retries, goes to review too).
    async fn sweep_lost_answers(&self, target: &WalletAdapterTarget, now: OffsetDateTime) -> Result<usize, AppError> {
        let lost_before = now - target.timeout - self.worker.grace;
        let stale = self
            .store
            .stale_sent_operations(target.operator_id, lost_before, self.worker.batch_size)
            .await?;
        let mut recovered = 0;
        for record in stale {
            match self.recover(&record, now).await {
                Ok(()) => recovered += 1,
                Err(error) => {
                    tracing::error!(wallet_operation_id = %record.id, %error, "recovering a lost wallet answer failed")
                }
            }
        }
        Ok(recovered)
    }

    async fn recover(&self, record: &WalletOperationRecord, now: OffsetDateTime) -> Result<(), AppError> {
        let recovery = restored(record).recover_within(self.worker.retry_limit);
        let mut next = record.clone();
        next.state = recovery.operation.state();
        next.review_reason = recovery.review_reason;
        next.detail = Some("the answer to the call was lost".to_owned());
        let mut update = operation_update(record.state, next.clone(), now);
        let mut change = TradingChange::default();
        match next.state {
            OperationState::ManualReview => {
                if matches!(record.flow, WalletFlow::Buy | WalletFlow::Sell) {
                    change.trade = self.trade_to_review(record).await?;
                }
                change.redemption = record
                    .redemption_id
                    .map(|id| redemption_update(id, RedemptionStatus::Pending, RedemptionStatus::ManualReview, now));
                change.events.push(self.trading.manual_review_required(&next, now));
                if record.flow == WalletFlow::Redemption {
                    change.events.push(self.trading.payout_pending(&next, now));
                }
                tracing::warn!(wallet_operation_id = %record.id, flow = %record.flow, "lost wallet answer: manual review");
            }
            OperationState::Prepared => {
                update.next_attempt_at = Some(now + retry_delay(&self.worker, record.attempts));
                tracing::info!(wallet_operation_id = %record.id, "lost wallet answer: sent again with the same key");
            }
            other => {
                return Err(AppError::Internal(format!(
                    "a sent {} operation cannot recover to {other}",
                    record.flow
                )));
            }
        }
        change.operation = Some(update);
        self.apply(record.operator_id, &change).await
    }

    /// The trade of a buy or sell whose answer was lost, moved to manual review.
    async fn trade_to_review(&self, record: &WalletOperationRecord) -> Result<Option<TradeUpdate>, AppError> {
        let Some(trade_id) = record.trade_id else {
            return Ok(None);
        };
        let open = self
            .trading
            .ports
            .trades
            .find_trade(record.operator_id, trade_id)
            .await?
            .ok_or_else(|| AppError::Internal(format!("wallet operation {} without its trade", record.id)))?;
        let in_review = crate::model::Trade {
            status: TradeStatus::ManualReview,
            ..open.trade.clone()
        };
        Ok(Some(trade_update(&in_review, open.trade.status)))
    }

    /// Applies a change; a lost compare-and-set means another worker or staff got there
    /// first, which is logged and not an error.
    pub(crate) async fn apply(&self, operator: OperatorId, change: &TradingChange) -> Result<(), AppError> {
        match self.trading.ports.trades.apply(operator, change).await {
            Err(StoreError::Conflict(what)) => {
                tracing::info!(operator_id = %operator, %what, "changed concurrently; left to whoever changed it");
                Ok(())
            }
            other => Ok(other?),
        }
    }
}
