//! Calling the operator's wallet for one operation: the operation is persisted as `sent`
//! before the call (so a crash can never lose that it may have reached the wallet), the
//! call is made once, and the answer becomes the operation's next state by the wallet
//! domain's rules. Nothing here retries or looks anything up (contract rules 3 and 4).

use opinion_core::{MarketId, OperatorId, RedemptionId, TradeId, UserId, WalletOperationId};
use opinion_wallet::{Classification, OperationState, RetryLimit, WalletMutation, WalletOperation};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::model::{WalletOperationRecord, WalletOperationStep};
use crate::opinion::trading::Trading;
use crate::opinion::trading::ports::{NewOperation, OperationUpdate};
use crate::wallet::new_operation::{OperationOf, OperationOwner, new_operation};
use crate::wallet::ports::WalletAdapterTarget;

/// What a wallet operation is about.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OperationSubject {
    pub operator_id: OperatorId,
    /// The player.
    pub user_id: UserId,
    pub market_id: MarketId,
    /// The trade, for buys, sells and compensations.
    pub trade_id: Option<TradeId>,
    /// The redemption, for redemptions.
    pub redemption_id: Option<RedemptionId>,
}

/// What a wallet answer means, in words for the operation's record.
pub(crate) fn detail_of(classification: &Classification) -> Option<String> {
    match classification {
        Classification::Applied { .. } => None,
        Classification::Rejected { code } => Some(code.as_str().to_owned()),
        Classification::Ambiguous { why } => Some(why.to_string()),
        Classification::NotSent => Some("not sent: the wallet could not be reached".to_owned()),
    }
}

impl Trading {
    /// A new operation for `mutation` in `state` (`sent` when the caller sends it at once,
    /// `prepared` when a worker will), to be stored before anything is sent.
    pub(crate) fn new_operation(
        &self,
        subject: OperationSubject,
        mutation: &WalletMutation,
        state: OperationState,
        now: OffsetDateTime,
    ) -> NewOperation {
        let owner = OperationOwner {
            operator_id: subject.operator_id,
            user_id: subject.user_id,
            of: OperationOf::Market {
                market_id: subject.market_id,
                trade_id: subject.trade_id,
                redemption_id: subject.redemption_id,
            },
        };
        let id = WalletOperationId::from_ulid(self.ports.random.ulid());
        new_operation(id, owner, mutation, state, now)
    }

    /// Sends a stored `sent` operation's mutation once and returns what the answer means
    /// and the operation's update (to be stored with the business change it causes); an
    /// owed credit is sent at most `limit` times.
    pub(crate) async fn call_wallet(
        &self,
        target: &WalletAdapterTarget,
        mutation: &WalletMutation,
        record: &WalletOperationRecord,
        limit: RetryLimit,
    ) -> Result<(Classification, OperationUpdate), AppError> {
        crate::wallet::call::call_wallet(
            self.ports.wallet.as_ref(),
            self.ports.clock.as_ref(),
            target,
            mutation,
            record,
            limit,
        )
        .await
    }
}

/// The wallet domain's operation a stored record is in, to decide its next state.
pub(crate) fn restored(record: &WalletOperationRecord) -> WalletOperation {
    WalletOperation::restore(
        record.flow,
        record.idempotency_key.clone(),
        record.state,
        record.attempts,
    )
}

/// The update moving an operation from `expected` to `next.state`, logging the step.
pub(crate) fn operation_update(
    expected: OperationState,
    next: WalletOperationRecord,
    now: OffsetDateTime,
) -> OperationUpdate {
    let step = WalletOperationStep {
        state: next.state,
        http_status: next.http_status,
        detail: next.detail.clone(),
        at: now,
    };
    OperationUpdate {
        id: next.id,
        expected,
        next_attempt_at: None,
        resolution: None,
        record: next,
        step,
    }
}
