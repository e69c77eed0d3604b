//! One call of an operator's wallet for a stored operation, shared by every product's
//! flows: the operation is already stored as `sent` (so a crash can never lose that it
//! may have reached the wallet), the mutation is sent once, and the answer becomes the
//! operation's next state by the wallet domain's rules (an owed credit sent at most the
//! caller's retry limit). Nothing here retries or looks anything up (contract rules 3 and
//! 4): what the answer means for the business is the calling flow's decision.

use opinion_wallet::{Classification, OperationState, RetryLimit, WalletMutation, WalletOperation};

use crate::error::AppError;
use crate::opinion::trading::ports::OperationUpdate;
use crate::opinion::trading::wallet_call::{detail_of, operation_update};
use crate::ports::Clock;
use crate::wallet::ports::{WalletAdapterTarget, WalletGateway};

/// Sends a stored `sent` operation's mutation once; returns what the answer means and
/// the operation's update, to be stored with the business change it causes.
#[tracing::instrument(skip_all, fields(
    operator_id = %record.operator_id,
    wallet_operation_id = %record.id,
    idempotency_key = %record.idempotency_key,
    flow = %record.flow,
))]
pub(crate) async fn call_wallet(
    wallet: &dyn WalletGateway,
    clock: &dyn Clock,
    target: &WalletAdapterTarget,
    mutation: &WalletMutation,
    record: &crate::model::WalletOperationRecord,
    limit: RetryLimit,
) -> Result<(Classification, OperationUpdate), AppError> {
    let outcome = wallet.mutate(target, mutation).await;
    let now = clock.now();
    let sent = WalletOperation::restore(
        record.flow,
        record.idempotency_key.clone(),
        OperationState::Sent,
        record.attempts,
    );
    let answered = sent
        .answer_within(&outcome.classification, limit)
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let mut next = record.clone();
    next.state = answered.operation.state();
    next.review_reason = answered.review_reason.or(record.review_reason);
    next.http_status = outcome.http_status;
    next.detail = detail_of(&outcome.classification);
    next.answered_at = Some(now);
    if let Classification::Applied {
        remote_reference,
        balance,
    } = &outcome.classification
    {
        next.remote_reference = Some(remote_reference.as_str().to_owned());
        next.balance_after = Some(*balance);
    }
    tracing::info!(
        state = %next.state,
        review_reason = ?next.review_reason,
        http_status = ?outcome.http_status,
        elapsed_ms = outcome.elapsed.as_millis() as u64,
        detail = ?next.detail,
        "wallet answered"
    );
    let update = operation_update(record.state, next, now);
    Ok((outcome.classification, update))
}
