//! `mini_app.wallet_operation.manual_review_required` and `…manual_review_resolved`, the
//! events every product's flows raise when a wallet mutation's outcome is unknown
//! (contract rule 4) and when staff have settled it.

use opinion_core::EventId;
use opinion_webhook::EventType;
use serde_json::json;
use time::OffsetDateTime;

use crate::model::{NewEvent, WalletOperationRecord, rfc3339};

/// The event for `operation`, which waits for staff from `at`: `reason` is what the
/// wallet's last answer meant, `reviewReason` why that puts it in review.
pub(crate) fn manual_review_required(id: EventId, operation: &WalletOperationRecord, at: OffsetDateTime) -> NewEvent {
    let data = json!({
        "walletOperationId": operation.id,
        "flow": operation.flow.as_str(),
        "externalUserId": operation.external_user_id,
        "amount": operation.amount.to_string(),
        "currency": operation.currency.as_str(),
        "reason": operation.detail.clone().unwrap_or_default(),
        "reviewReason": operation.review_reason.map(|reason| reason.as_str()),
    });
    NewEvent::new(
        id,
        operation.operator_id,
        EventType::WalletOperationManualReviewRequired,
        data,
        at,
    )
}

/// The event for `operation`, which staff resolved at `at`; `resolution` is `applied` or
/// `not_applied`: what they found in the wallet's log.
pub(crate) fn manual_review_resolved(
    id: EventId,
    operation: &WalletOperationRecord,
    resolution: &str,
    at: OffsetDateTime,
) -> NewEvent {
    let data = json!({
        "walletOperationId": operation.id,
        "flow": operation.flow.as_str(),
        "resolution": resolution,
        "resolvedAt": rfc3339(at),
    });
    NewEvent::new(
        id,
        operation.operator_id,
        EventType::WalletOperationManualReviewResolved,
        data,
        at,
    )
}
