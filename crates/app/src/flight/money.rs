//! Flight money through the operator's wallet (FLIGHT.md §2): the three mutations of a
//! ticket (its purchase debit, its payout and its refund, each with the one idempotency
//! key of its business action, forever), and the money worker that sends the credits
//! the driver prepared and recovers calls whose answer was lost. Payouts are primary
//! mutations (an ambiguous answer goes to manual review); refunds give a debit back and
//! are retried only with their original key.

use opinion_core::WalletOperationId;
use opinion_flight::Rupiah;
use opinion_wallet::{
    Amount, Currency, FlowMetadata, OperationState, TicketPayoutMetadata, TicketPurchaseMetadata, TicketRefundMetadata,
    WalletMutation,
};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::flight::FlightGame;
use crate::flight::engine::internal;
use crate::flight::model::TicketRecord;
use crate::opinion::trading::ports::NewOperation;
use crate::wallet::new_operation::{OperationOf, OperationOwner, new_operation};

/// The purchase debit of `ticket`.
pub(crate) fn purchase_mutation(ticket: &TicketRecord) -> Result<WalletMutation, AppError> {
    let metadata = FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
        flight_id: ticket.flight_id,
        ticket_id: ticket.id,
        auto_cash_out: ticket.auto_cash_out,
    });
    mutation(ticket, ticket.stake, metadata)
}

/// The payout credit of a cashed-out `ticket`.
pub(crate) fn payout_mutation(ticket: &TicketRecord) -> Result<WalletMutation, AppError> {
    let (Some(multiplier), Some(payout)) = (ticket.cash_out, ticket.payout) else {
        return Err(internal(format_args!("ticket {} has no cash-out to pay", ticket.id)));
    };
    let metadata = FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
        flight_id: ticket.flight_id,
        ticket_id: ticket.id,
        multiplier,
    });
    mutation(ticket, payout, metadata)
}

/// The refund credit of `ticket`'s stake.
pub(crate) fn refund_mutation(ticket: &TicketRecord) -> Result<WalletMutation, AppError> {
    let metadata = FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
        flight_id: ticket.flight_id,
        ticket_id: ticket.id,
        refund_of: ticket.purchase_operation_id,
    });
    mutation(ticket, ticket.stake, metadata)
}

/// Flight money is IDR, whatever the operator's Opinion currency.
fn mutation(ticket: &TicketRecord, rupiah: Rupiah, metadata: FlowMetadata) -> Result<WalletMutation, AppError> {
    let amount = Amount::from_rupiah(rupiah).map_err(internal)?;
    WalletMutation::new(ticket.external_user_id.clone(), amount, Currency::IDR, metadata).map_err(internal)
}

impl FlightGame {
    /// The stored form of `mutation` for `ticket`, starting in `state` (`sent` when the
    /// caller sends it at once, `prepared` when the money worker will).
    pub(crate) fn operation(
        &self,
        id: WalletOperationId,
        ticket: &TicketRecord,
        mutation: &WalletMutation,
        state: OperationState,
        now: OffsetDateTime,
    ) -> NewOperation {
        let owner = OperationOwner {
            operator_id: ticket.operator_id,
            user_id: ticket.user_id,
            of: OperationOf::Ticket {
                flight_id: ticket.flight_id,
                ticket_id: ticket.id,
            },
        };
        new_operation(id, owner, mutation, state, now)
    }

    /// The payout credit of a just cashed-out ticket, due now.
    pub(crate) fn payout_operation(
        &self,
        ticket: &TicketRecord,
        now: OffsetDateTime,
    ) -> Result<NewOperation, AppError> {
        let mutation = payout_mutation(ticket)?;
        let id = WalletOperationId::from_ulid(self.ports.random.ulid());
        Ok(self.operation(id, ticket, &mutation, OperationState::Prepared, now))
    }

    /// The refund credit of a ticket owed its stake back, due now.
    pub(crate) fn refund_operation(
        &self,
        ticket: &TicketRecord,
        now: OffsetDateTime,
    ) -> Result<NewOperation, AppError> {
        let mutation = refund_mutation(ticket)?;
        let id = WalletOperationId::from_ulid(self.ports.random.ulid());
        Ok(self.operation(id, ticket, &mutation, OperationState::Prepared, now))
    }
}
