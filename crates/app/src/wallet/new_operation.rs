//! A wallet operation as first stored, before anything is sent: the one place its record
//! is assembled from the mutation, for every product's flow. `sent` when the caller sends
//! it at once (one attempt counted), `prepared` when a worker will (due at once).

use opinion_core::{FlightId, MarketId, OperatorId, RedemptionId, TicketId, TradeId, UserId, WalletOperationId};
use opinion_wallet::{OperationState, WalletMutation};
use time::OffsetDateTime;

use crate::model::WalletOperationRecord;
use crate::opinion::trading::ports::NewOperation;

/// The business record an operation carries out, as its stored columns name it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum OperationOf {
    /// An Opinion trade or redemption on a market.
    Market {
        market_id: MarketId,
        trade_id: Option<TradeId>,
        redemption_id: Option<RedemptionId>,
    },
    /// A flight ticket.
    Ticket { flight_id: FlightId, ticket_id: TicketId },
}

/// Whose operation it is and what it carries out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OperationOwner {
    pub operator_id: OperatorId,
    /// The player.
    pub user_id: UserId,
    pub of: OperationOf,
}

/// The stored form of `mutation`, starting in `state` at `now`.
pub(crate) fn new_operation(
    id: WalletOperationId,
    owner: OperationOwner,
    mutation: &WalletMutation,
    state: OperationState,
    now: OffsetDateTime,
) -> NewOperation {
    let sent = state == OperationState::Sent;
    let (market_id, trade_id, redemption_id, flight_id, ticket_id) = match owner.of {
        OperationOf::Market {
            market_id,
            trade_id,
            redemption_id,
        } => (Some(market_id), trade_id, redemption_id, None, None),
        OperationOf::Ticket { flight_id, ticket_id } => (None, None, None, Some(flight_id), Some(ticket_id)),
    };
    let record = WalletOperationRecord {
        id,
        operator_id: owner.operator_id,
        user_id: owner.user_id,
        external_user_id: mutation.external_user_id().to_owned(),
        flow: mutation.flow(),
        reason: mutation.reason(),
        idempotency_key: mutation.idempotency_key(),
        amount: mutation.amount().minor_units(),
        currency: mutation.currency(),
        metadata: mutation.metadata_map(),
        market_id,
        trade_id,
        redemption_id,
        flight_id,
        ticket_id,
        state,
        attempts: u32::from(sent),
        http_status: None,
        detail: None,
        remote_reference: None,
        balance_after: None,
        created_at: now,
        sent_at: sent.then_some(now),
        answered_at: None,
        resolved_at: None,
        review_reason: None,
    };
    NewOperation {
        record,
        fingerprint: mutation.fingerprint(),
        next_attempt_at: (!sent).then_some(now),
    }
}
