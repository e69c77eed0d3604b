//! A ticket's moves as parts of a `FlightChange`: each asks the ticket status machine
//! (`opinion-flight`) whether the move is legal, and adds the ticket's update with the
//! wallet operation and the event the move causes, so every path (the driver, a
//! player's cash-out, a wallet answer) moves tickets the same way.

use opinion_core::WalletOperationId;
use opinion_flight::{Multiplier, TicketEvent, TicketStatus, payout};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::flight::FlightGame;
use crate::flight::engine::internal;
use crate::flight::events::RefundReason;
use crate::flight::model::{FlightRecord, TicketRecord};
use crate::flight::ports::{FlightChange, TicketUpdate};

/// The ticket after `event`, refused when the status machine forbids it.
pub(crate) fn moved(ticket: &TicketRecord, event: TicketEvent, now: OffsetDateTime) -> Result<TicketRecord, AppError> {
    let status = ticket.status.transition(event).map_err(internal)?;
    let mut next = ticket.clone();
    next.status = status;
    next.updated_at = now;
    Ok(next)
}

impl FlightGame {
    /// Cashes `ticket` out at `at` (decided at `cashed_out_at`), owing its payout: the
    /// payout credit is prepared for the money worker in the same step.
    pub(crate) fn cash_out_into(
        &self,
        change: &mut FlightChange,
        ticket: TicketRecord,
        at: Multiplier,
        cashed_out_at: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Result<(), AppError> {
        let mut next = moved(&ticket, TicketEvent::CashedOut, now)?;
        next.cash_out = Some(at);
        next.cashed_out_at = Some(cashed_out_at);
        next.payout = Some(payout(ticket.stake, at, ticket.max_payout));
        let auto = ticket.auto_cash_out == Some(at);
        change.new_operations.push(self.payout_operation(&next, now)?);
        change.events.push(self.ticket_cashed_out(&next, auto, now));
        change.tickets.push(TicketUpdate {
            expected: ticket.status,
            ticket: next,
        });
        Ok(())
    }

    /// Settles `ticket` as lost in `flight`'s crash.
    pub(crate) fn lose_into(
        &self,
        change: &mut FlightChange,
        flight: &FlightRecord,
        ticket: TicketRecord,
        now: OffsetDateTime,
    ) -> Result<(), AppError> {
        let mut next = moved(&ticket, TicketEvent::Crashed, now)?;
        next.settled_at = Some(now);
        change.events.push(self.ticket_lost(&next, flight.crash, now));
        change.tickets.push(TicketUpdate {
            expected: ticket.status,
            ticket: next,
        });
        Ok(())
    }

    /// Owes `ticket`'s stake back for `reason`: the refund credit is prepared for the
    /// money worker in the same step; `mini_app.flight.ticket.refunded` follows when the
    /// wallet applies it.
    pub(crate) fn refund_into(
        &self,
        change: &mut FlightChange,
        ticket: TicketRecord,
        event: TicketEvent,
        reason: RefundReason,
        now: OffsetDateTime,
    ) -> Result<(), AppError> {
        let mut next = moved(&ticket, event, now)?;
        debug_assert_eq!(next.status, TicketStatus::Refunding);
        next.refund_reason = Some(reason);
        change.new_operations.push(self.refund_operation(&next, now)?);
        change.tickets.push(TicketUpdate {
            expected: ticket.status,
            ticket: next,
        });
        Ok(())
    }

    /// Settles a cashed-out `ticket` whose payout the wallet applied.
    pub(crate) fn paid_into(&self, change: &mut FlightChange, ticket: TicketRecord, now: OffsetDateTime) {
        let mut paid = ticket;
        paid.settled_at = Some(now);
        paid.updated_at = now;
        change.tickets.push(TicketUpdate {
            expected: TicketStatus::CashedOut,
            ticket: paid,
        });
    }

    /// Settles a refunding `ticket` whose refund (`refund`) the wallet applied, with
    /// `mini_app.flight.ticket.refunded`.
    pub(crate) fn refunded_into(
        &self,
        change: &mut FlightChange,
        ticket: TicketRecord,
        refund: WalletOperationId,
        now: OffsetDateTime,
    ) -> Result<(), AppError> {
        let mut refunded = moved(&ticket, TicketEvent::RefundApplied, now)?;
        refunded.settled_at = Some(now);
        let reason = ticket
            .refund_reason
            .ok_or_else(|| internal(format_args!("ticket {} is refunded without a reason", ticket.id)))?;
        change.events.push(self.ticket_refunded(&refunded, reason, refund, now));
        change.tickets.push(TicketUpdate {
            expected: ticket.status,
            ticket: refunded,
        });
        Ok(())
    }
}
