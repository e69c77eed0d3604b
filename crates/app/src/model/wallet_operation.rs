//! A wallet operation as stored: everything an operator reconciles with (contract rule 7).
//! Opinion's and the flight product's operations share the one table and the one
//! engine; each names exactly one product subject: a market (Opinion) or a flight and
//! its ticket (flight).

use std::collections::BTreeMap;

use opinion_core::{FlightId, MarketId, OperatorId, RedemptionId, TicketId, TradeId, UserId, WalletOperationId};
use opinion_wallet::{Currency, IdempotencyKey, OperationState, ReasonKey, ReviewReason, WalletFlow};
use time::OffsetDateTime;

/// One call of an operator's wallet for one business action, with its current state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletOperationRecord {
    pub id: WalletOperationId,
    pub operator_id: OperatorId,
    /// The player.
    pub user_id: UserId,
    /// The player's id at the operator, as sent.
    pub external_user_id: String,
    /// Buy, sell, buy compensation, redemption, or a flight ticket's purchase, payout or refund.
    pub flow: WalletFlow,
    /// The reason key sent.
    pub reason: ReasonKey,
    /// The action's one idempotency key.
    pub idempotency_key: IdempotencyKey,
    /// Minor units moved (or to be moved).
    pub amount: i64,
    /// The operator's currency for Opinion, IDR for the flight product.
    pub currency: Currency,
    /// The metadata sent, camelCase keys.
    pub metadata: BTreeMap<String, String>,
    /// The market concerned (every Opinion operation, never a flight one).
    pub market_id: Option<MarketId>,
    /// The flight concerned (every flight operation, never an Opinion one).
    pub flight_id: Option<FlightId>,
    /// The ticket concerned (every flight operation, never an Opinion one).
    pub ticket_id: Option<TicketId>,
    /// The trade concerned (buy, sell, buy compensation).
    pub trade_id: Option<TradeId>,
    /// The redemption concerned.
    pub redemption_id: Option<RedemptionId>,
    /// Where the operation is.
    pub state: OperationState,
    /// How many times it was sent.
    pub attempts: u32,
    /// The HTTP status of the wallet's last answer.
    pub http_status: Option<u16>,
    /// What the last answer meant (a refusal code or why it was ambiguous).
    pub detail: Option<String>,
    /// The wallet's reference of the applied mutation.
    pub remote_reference: Option<String>,
    /// The player's balance after it, as the wallet reported.
    pub balance_after: Option<i64>,
    /// When it was prepared.
    pub created_at: OffsetDateTime,
    /// When it was last sent.
    pub sent_at: Option<OffsetDateTime>,
    /// When the last answer came.
    pub answered_at: Option<OffsetDateTime>,
    /// When staff resolved it, if it went to manual review.
    pub resolved_at: Option<OffsetDateTime>,
    /// Why it went to manual review, if it did (kept once resolved).
    pub review_reason: Option<ReviewReason>,
}

/// One step of a wallet operation's append-only log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletOperationStep {
    /// The state it moved to.
    pub state: OperationState,
    /// The HTTP status observed, if the step was an answer.
    pub http_status: Option<u16>,
    /// What happened.
    pub detail: Option<String>,
    /// When (UTC).
    pub at: OffsetDateTime,
}
