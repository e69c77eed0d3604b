//! The webhook events of the trading write path, built with the `data` fields the event
//! catalog (`opinion-webhook`'s `event_type.rs`) documents: camelCase, ids prefixed,
//! amounts as integer strings, times RFC 3339 UTC.

use opinion_core::{EventId, OperatorId, WalletOperationId};
use opinion_webhook::EventType;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::model::{NewEvent, Trade, WalletOperationRecord, rfc3339};
use crate::opinion::trading::Trading;

impl Trading {
    pub(crate) fn event(
        &self,
        operator_id: OperatorId,
        event_type: EventType,
        data: Value,
        at: OffsetDateTime,
    ) -> NewEvent {
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            operator_id,
            event_type,
            data,
            at,
        )
    }

    /// `mini_app.trade.submitted`: the order is stored and its wallet call comes next;
    /// `shares` and `amount` are the order as priced, the amount its wallet call carries.
    pub(crate) fn trade_submitted(&self, trade: &Trade, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "tradeId": trade.id,
            "marketId": trade.market_id,
            "externalUserId": trade.external_user_id,
            "side": trade.side.as_str(),
            "outcome": trade.outcome.as_str(),
            "shares": trade.shares.to_string(),
            "amount": trade.amount.to_string(),
            "currency": trade.currency.as_str(),
            "submittedAt": rfc3339(at),
        });
        self.event(trade.operator_id, EventType::TradeSubmitted, data, at)
    }

    /// `mini_app.trade.processed`: the trade as executed.
    pub(crate) fn trade_processed(&self, trade: &Trade, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "tradeId": trade.id,
            "marketId": trade.market_id,
            "externalUserId": trade.external_user_id,
            "side": trade.side.as_str(),
            "outcome": trade.outcome.as_str(),
            "shares": trade.shares.to_string(),
            "amount": trade.amount.to_string(),
            "currency": trade.currency.as_str(),
            "processedAt": rfc3339(at),
        });
        self.event(trade.operator_id, EventType::TradeProcessed, data, at)
    }

    /// `mini_app.trade.failed`.
    pub(crate) fn trade_failed(&self, trade: &Trade, reason: &str, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "tradeId": trade.id,
            "marketId": trade.market_id,
            "externalUserId": trade.external_user_id,
            "side": trade.side.as_str(),
            "reason": reason,
            "failedAt": rfc3339(at),
        });
        self.event(trade.operator_id, EventType::TradeFailed, data, at)
    }

    /// `mini_app.trade.compensation_required`: `compensation` gives back the debit
    /// `compensated` of a buy that could not be placed, for `reason`.
    pub(crate) fn trade_compensation_required(
        &self,
        trade: &Trade,
        compensation: &WalletOperationRecord,
        compensated: WalletOperationId,
        reason: &str,
        at: OffsetDateTime,
    ) -> NewEvent {
        let data = json!({
            "tradeId": trade.id,
            "marketId": trade.market_id,
            "externalUserId": trade.external_user_id,
            "walletOperationId": compensation.id,
            "compensatedOperationId": compensated,
            "amount": compensation.amount.to_string(),
            "currency": compensation.currency.as_str(),
            "reason": reason,
            "requiredAt": rfc3339(at),
        });
        self.event(trade.operator_id, EventType::TradeCompensationRequired, data, at)
    }

    /// `mini_app.wallet_operation.manual_review_required`.
    pub(crate) fn manual_review_required(&self, operation: &WalletOperationRecord, at: OffsetDateTime) -> NewEvent {
        let id = EventId::from_ulid(self.ports.random.ulid());
        crate::wallet::review_event::manual_review_required(id, operation, at)
    }
}
