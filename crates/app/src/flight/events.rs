//! The `mini_app.flight.ticket.*` events, with the `data` fields the event catalog
//! (`opinion-webhook`'s `event_type.rs`) documents: camelCase, prefixed ids, rupiah as
//! integer strings with `currency: "IDR"`, multipliers as two-decimal strings, times
//! RFC 3339 UTC.

use opinion_core::{EventId, WalletOperationId};
use opinion_flight::Multiplier;
use opinion_webhook::EventType;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::flight::FlightGame;
use crate::flight::model::TicketRecord;
use crate::model::{NewEvent, rfc3339};

/// The currency of every flight amount.
pub(crate) const IDR: &str = "IDR";

/// Why a ticket's stake goes back to the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundReason {
    /// The flight was cancelled (a new driver found it boarding).
    FlightCancelled,
    /// The debit was confirmed only after boarding had closed.
    BoardingClosed,
    /// Staff found a reviewed debit applied; the ticket never flew.
    Review,
}

impl RefundReason {
    /// Every reason.
    pub const ALL: [RefundReason; 3] = [Self::FlightCancelled, Self::BoardingClosed, Self::Review];

    /// The name in the event and in storage.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::FlightCancelled => "flight_cancelled",
            Self::BoardingClosed => "boarding_closed",
            Self::Review => "review",
        }
    }
}

impl FlightGame {
    fn event(&self, ticket: &TicketRecord, event_type: EventType, data: Value, at: OffsetDateTime) -> NewEvent {
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            ticket.operator_id,
            event_type,
            data,
            at,
        )
    }

    /// `mini_app.flight.ticket.purchased`: the debit went through.
    pub(crate) fn ticket_purchased(&self, ticket: &TicketRecord, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "ticketId": ticket.id,
            "flightId": ticket.flight_id,
            "externalUserId": ticket.external_user_id,
            "stake": ticket.stake,
            "currency": IDR,
            "autoCashOut": ticket.auto_cash_out,
            "shareBps": ticket.share_bps.get(),
            "walletOperationId": ticket.purchase_operation_id,
            "purchasedAt": rfc3339(at),
        });
        self.event(ticket, EventType::FlightTicketPurchased, data, at)
    }

    /// `mini_app.flight.ticket.cashed_out`: the ticket won; its payout is owed.
    pub(crate) fn ticket_cashed_out(&self, ticket: &TicketRecord, auto: bool, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "ticketId": ticket.id,
            "flightId": ticket.flight_id,
            "externalUserId": ticket.external_user_id,
            "stake": ticket.stake,
            "multiplier": ticket.cash_out,
            "payout": ticket.payout,
            "currency": IDR,
            "auto": auto,
            "cashedOutAt": ticket.cashed_out_at.map(rfc3339),
        });
        self.event(ticket, EventType::FlightTicketCashedOut, data, at)
    }

    /// `mini_app.flight.ticket.lost`: still flying at the crash.
    pub(crate) fn ticket_lost(&self, ticket: &TicketRecord, crash: Multiplier, at: OffsetDateTime) -> NewEvent {
        let data = json!({
            "ticketId": ticket.id,
            "flightId": ticket.flight_id,
            "externalUserId": ticket.external_user_id,
            "stake": ticket.stake,
            "crashPoint": crash,
            "currency": IDR,
            "lostAt": rfc3339(at),
        });
        self.event(ticket, EventType::FlightTicketLost, data, at)
    }

    /// `mini_app.flight.ticket.refunded`: the stake reached the wallet again.
    pub(crate) fn ticket_refunded(
        &self,
        ticket: &TicketRecord,
        reason: RefundReason,
        refund: WalletOperationId,
        at: OffsetDateTime,
    ) -> NewEvent {
        let data = json!({
            "ticketId": ticket.id,
            "flightId": ticket.flight_id,
            "externalUserId": ticket.external_user_id,
            "amount": ticket.stake,
            "currency": IDR,
            "reason": reason.as_str(),
            "walletOperationId": refund,
            "refundedAt": rfc3339(at),
        });
        self.event(ticket, EventType::FlightTicketRefunded, data, at)
    }
}
