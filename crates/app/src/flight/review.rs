//! Manual review of the flight product's wallet operations, for platform staff. The
//! finding is checked and recorded as for every product (`wallet::review`); the ticket
//! follows in the same step:
//! - a purchase debit found applied is refunded (the ticket never flew: boarding closed
//!   long before any review); found not applied, the ticket is rejected, no money moved;
//! - a payout found applied settles its ticket; found not applied, the payout is still
//!   owed and staff arrange it with the operator outside the platform, as for an
//!   Opinion redemption (its key is spent: it is never sent again);
//! - a refund found applied settles its ticket as refunded.

use opinion_core::{EventId, WalletOperationId};
use opinion_flight::{TicketEvent, TicketStatus};
use opinion_wallet::WalletFlow;

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::events::RefundReason;
use crate::flight::model::TicketRecord;
use crate::flight::moves::moved;
use crate::flight::ports::{FlightChange, TicketUpdate};
use crate::model::WalletOperationRecord;
use crate::wallet::review::{ReviewDecision, review_operation};

/// A flight operation staff resolved, with its ticket afterwards.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedFlightOperation {
    /// The operation, resolved.
    pub operation: WalletOperationRecord,
    /// Its ticket, as the resolution left it.
    pub ticket: TicketRecord,
}

impl FlightGame {
    /// The ticket of flight operation `id`, for staff deciding its review.
    pub async fn ticket_under_review(&self, id: WalletOperationId) -> Result<TicketRecord, AppError> {
        let operation = self.flight_operation(id).await?;
        self.ticket_of(&operation).await
    }

    /// Records staff's finding on a flight operation in manual review and moves its
    /// ticket accordingly, in one step; refused (`not_in_review`) unless it waits for
    /// staff, (`changed_meanwhile`) when its ticket moved in between.
    pub async fn resolve_review(&self, decision: ReviewDecision) -> Result<ResolvedFlightOperation, AppError> {
        let record = self.flight_operation(decision.operation_id).await?;
        let now = self.ports.clock.now();
        let reviewed = review_operation(&record, &decision, EventId::from_ulid(self.ports.random.ulid()), now)?;
        let ticket = self.ticket_of(&record).await?;
        let mut change = FlightChange::default();
        match (record.flow, reviewed.applied) {
            (WalletFlow::FlightTicketPurchase, true) => {
                let event = TicketEvent::ReviewResolvedApplied;
                self.refund_into(&mut change, ticket, event, RefundReason::Review, now)?;
            }
            (WalletFlow::FlightTicketPurchase, false) => {
                let mut rejected = moved(&ticket, TicketEvent::ReviewResolvedNotApplied, now)?;
                rejected.settled_at = Some(now);
                change.tickets.push(TicketUpdate {
                    expected: TicketStatus::Review,
                    ticket: rejected,
                });
            }
            (WalletFlow::FlightTicketPayout, true) => self.paid_into(&mut change, ticket, now),
            (WalletFlow::FlightTicketRefund, true) => self.refunded_into(&mut change, ticket, record.id, now)?,
            (flow, _) => tracing::error!(
                wallet_operation_id = %record.id,
                %flow,
                "staff found a flight credit not applied: it is still owed to the player"
            ),
        }
        let word = reviewed.word();
        change.operation = Some(reviewed.update);
        change.events.push(reviewed.event);
        if !self.ports.store.apply_flight_change(&change).await? {
            return Err(AppError::Conflict {
                code: ProblemCode::ChangedMeanwhile,
                detail: "the operation or its ticket changed meanwhile; show it again".to_owned(),
            });
        }
        tracing::info!(wallet_operation_id = %record.id, resolution = word, by = %decision.resolved_by, "flight manual review resolved");
        let ticket = self.ticket_of(&record).await?;
        Ok(ResolvedFlightOperation {
            operation: reviewed.resolved,
            ticket,
        })
    }

    async fn flight_operation(&self, id: WalletOperationId) -> Result<WalletOperationRecord, AppError> {
        self.ports
            .store
            .find_flight_operation(id)
            .await?
            .ok_or(AppError::NotFound("flight wallet operation"))
    }
}
