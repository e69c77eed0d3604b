//! The webhook events of resolution, payouts and manual review, with the `data` fields
//! the event catalog documents.

use opinion_webhook::EventType;
use serde_json::json;
use time::OffsetDateTime;

use crate::model::rfc3339;
use crate::model::{Market, NewEvent, WalletOperationRecord};
use crate::opinion::settlement::ports::MarketOperator;
use crate::opinion::trading::Trading;

impl Trading {
    /// `mini_app.market.resolved`, for one operator that traded the market.
    pub(crate) fn market_resolved(&self, operator: &MarketOperator, market: &Market, at: OffsetDateTime) -> NewEvent {
        let winning = market.status.resolution().map(|r| r.as_str());
        let data = json!({
            "marketId": market.id,
            "winningOutcome": winning,
            "resolvedAt": rfc3339(at),
        });
        self.event(operator.operator_id, EventType::MarketResolved, data, at)
    }

    /// `mini_app.redemption.processed`, from the redemption's wallet operation (which
    /// carries every field).
    pub(crate) fn redemption_processed(&self, operation: &WalletOperationRecord, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "redemptionId": operation.redemption_id,
            "marketId": operation.market_id,
            "externalUserId": operation.external_user_id,
            "amount": operation.amount.to_string(),
            "currency": operation.currency.as_str(),
            "processedAt": rfc3339(at),
        });
        self.event(operation.operator_id, EventType::RedemptionProcessed, data, at)
    }

    /// `mini_app.redemption.failed`: the wallet refused the payout, or staff found it not
    /// applied; `reason` says which.
    pub(crate) fn redemption_failed(
        &self,
        operation: &WalletOperationRecord,
        reason: &str,
        at: OffsetDateTime,
    ) -> NewEvent {
        let data = json!({
            "redemptionId": operation.redemption_id,
            "marketId": operation.market_id,
            "externalUserId": operation.external_user_id,
            "amount": operation.amount.to_string(),
            "currency": operation.currency.as_str(),
            "reason": reason,
            "failedAt": rfc3339(at),
        });
        self.event(operation.operator_id, EventType::RedemptionFailed, data, at)
    }

    /// `mini_app.payout.pending`: whether the redemption's payout reached the wallet is
    /// unknown; it waits for manual review.
    pub(crate) fn payout_pending(&self, operation: &WalletOperationRecord, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "redemptionId": operation.redemption_id,
            "marketId": operation.market_id,
            "externalUserId": operation.external_user_id,
            "walletOperationId": operation.id,
            "amount": operation.amount.to_string(),
            "currency": operation.currency.as_str(),
            "reason": operation.detail.clone().unwrap_or_default(),
            "pendingSince": rfc3339(at),
        });
        self.event(operation.operator_id, EventType::PayoutPending, data, at)
    }
}
