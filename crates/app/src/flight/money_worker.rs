//! The money worker of the flight product: one pass sends every due payout and refund
//! (claimed with `SKIP LOCKED`, so several instances share the work) and recovers flight
//! calls whose answer was lost, by the wallet domain's restart rule: a lost purchase or
//! payout goes to manual review, a lost refund is sent again with its key. Payouts and
//! refunds are money owed to the player: one the wallet refuses, or still unsent after
//! the settings' retry limit, goes to manual review with its amount. Each answer and its
//! consequence for the ticket is one `FlightChange`.

use opinion_core::{EventId, OperatorId};
use opinion_flight::{TicketEvent, TicketStatus};
use opinion_wallet::{OperationState, WalletFlow};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::flight::FlightGame;
use crate::flight::engine::internal;
use crate::flight::moves::moved;
use crate::flight::ports::{FlightChange, TicketUpdate};
use crate::model::WalletOperationRecord;
use crate::opinion::settlement::wallet_worker::{mutation_of, retry_delay};
use crate::opinion::trading::ports::OperationUpdate;
use crate::opinion::trading::wallet_call::{operation_update, restored};
use crate::wallet::call::call_wallet;
use crate::wallet::ports::WalletAdapterTarget;
use crate::wallet::review_event::manual_review_required;

/// What one pass of the money worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoneyPass {
    /// Payouts and refunds sent.
    pub sent: usize,
    /// Lost answers recovered.
    pub recovered: usize,
}

impl FlightGame {
    /// One pass at the clock's now, over every operator with flight money due. A failure
    /// of one operation is logged and left for the next pass.
    pub async fn run_money_pass(&self) -> Result<MoneyPass, AppError> {
        let now = self.ports.clock.now();
        let mut pass = MoneyPass::default();
        let lost_before = now - self.settings.money.grace;
        for operator in self
            .ports
            .store
            .operators_with_flight_wallet_work(now, lost_before)
            .await?
        {
            let Some(target) = self.ports.wallet_adapters.find_wallet_target(operator).await? else {
                tracing::warn!(operator_id = %operator, "flight payouts are due but the operator has no wallet adapter");
                continue;
            };
            pass.recovered += self.recover_lost(&target, now).await?;
            pass.sent += self.send_due(&target, now).await?;
        }
        Ok(pass)
    }

    async fn send_due(&self, target: &WalletAdapterTarget, now: OffsetDateTime) -> Result<usize, AppError> {
        let batch = u32::from(self.settings.money.batch_size);
        let claimed = self
            .ports
            .store
            .claim_due_flight_operations(target.operator_id, now, batch)
            .await?;
        let count = claimed.len();
        for record in claimed {
            if let Err(error) = self.send_claimed(target, &record).await {
                tracing::error!(wallet_operation_id = %record.id, %error, "sending a flight credit failed");
            }
        }
        Ok(count)
    }

    async fn send_claimed(&self, target: &WalletAdapterTarget, record: &WalletOperationRecord) -> Result<(), AppError> {
        let mutation = mutation_of(record)?;
        let (_, update) = call_wallet(
            self.ports.wallet.as_ref(),
            self.ports.clock.as_ref(),
            target,
            &mutation,
            record,
            self.settings.money.retry_limit,
        )
        .await?;
        let change = self.credit_answered(update).await?;
        self.store_money_change(record.operator_id, &change).await
    }

    /// A worker-sent credit's answer with its consequence for the ticket.
    async fn credit_answered(&self, mut update: OperationUpdate) -> Result<FlightChange, AppError> {
        let now = update.step.at;
        let record = update.record.clone();
        let mut change = FlightChange::default();
        match (record.flow, record.state) {
            (_, OperationState::Prepared) => {
                update.next_attempt_at = Some(now + retry_delay(&self.settings.money, record.attempts));
            }
            (WalletFlow::FlightTicketPayout, OperationState::Applied) => {
                let ticket = self.ticket_of(&record).await?;
                self.paid_into(&mut change, ticket, now);
            }
            (WalletFlow::FlightTicketRefund, OperationState::Applied) => {
                let ticket = self.ticket_of(&record).await?;
                self.refunded_into(&mut change, ticket, record.id, now)?;
            }
            (_, OperationState::ManualReview) => {
                tracing::warn!(
                    wallet_operation_id = %record.id,
                    flow = %record.flow,
                    review_reason = ?record.review_reason,
                    detail = ?record.detail,
                    amount = record.amount,
                    "a flight credit owed to the player waits for staff"
                );
                change.events.push(self.review_event(&record, now));
            }
            (flow, state) => tracing::error!(
                wallet_operation_id = %record.id,
                %flow,
                %state,
                detail = ?record.detail,
                "a flight credit cannot end in this state"
            ),
        }
        change.operation = Some(update);
        Ok(change)
    }

    /// Recovers the operator's flight calls whose answer was lost.
    async fn recover_lost(&self, target: &WalletAdapterTarget, now: OffsetDateTime) -> Result<usize, AppError> {
        let lost_before = now - time::Duration::try_from(target.timeout).map_err(internal)? - self.settings.money.grace;
        let batch = u32::from(self.settings.money.batch_size);
        let stale = self
            .ports
            .store
            .stale_flight_operations(target.operator_id, lost_before, batch)
            .await?;
        let mut recovered = 0;
        for record in stale {
            match self.recover_one(&record, now).await {
                Ok(()) => recovered += 1,
                Err(error) => {
                    tracing::error!(wallet_operation_id = %record.id, %error, "recovering a lost flight answer failed")
                }
            }
        }
        Ok(recovered)
    }

    async fn recover_one(&self, record: &WalletOperationRecord, now: OffsetDateTime) -> Result<(), AppError> {
        let recovery = restored(record).recover_within(self.settings.money.retry_limit);
        let mut next = record.clone();
        next.state = recovery.operation.state();
        next.review_reason = recovery.review_reason;
        next.detail = Some("the answer to the call was lost".to_owned());
        let mut update = operation_update(record.state, next.clone(), now);
        let mut change = FlightChange::default();
        match next.state {
            OperationState::ManualReview => {
                if record.flow == WalletFlow::FlightTicketPurchase {
                    let ticket = self.ticket_of(record).await?;
                    if ticket.status == TicketStatus::Pending {
                        change.tickets.push(TicketUpdate {
                            expected: TicketStatus::Pending,
                            ticket: moved(&ticket, TicketEvent::DebitAmbiguous, now)?,
                        });
                    }
                }
                change.events.push(self.review_event(&next, now));
                tracing::warn!(wallet_operation_id = %record.id, flow = %record.flow, "lost flight wallet answer: manual review");
            }
            OperationState::Prepared => {
                update.next_attempt_at = Some(now + retry_delay(&self.settings.money, record.attempts));
                tracing::info!(wallet_operation_id = %record.id, "lost flight refund answer: sent again with the same key");
            }
            other => {
                return Err(internal(format_args!(
                    "a sent flight operation cannot recover to {other}"
                )));
            }
        }
        change.operation = Some(update);
        self.store_money_change(record.operator_id, &change).await
    }

    pub(crate) fn review_event(&self, record: &WalletOperationRecord, now: OffsetDateTime) -> crate::model::NewEvent {
        manual_review_required(EventId::from_ulid(self.ports.random.ulid()), record, now)
    }

    pub(crate) async fn ticket_of(
        &self,
        record: &WalletOperationRecord,
    ) -> Result<crate::flight::model::TicketRecord, AppError> {
        let id = record
            .ticket_id
            .ok_or_else(|| internal(format_args!("flight operation {} names no ticket", record.id)))?;
        self.ports
            .store
            .find_ticket(record.operator_id, id)
            .await?
            .ok_or_else(|| internal(format_args!("flight operation {} names an unknown ticket", record.id)))
    }

    async fn store_money_change(&self, operator: OperatorId, change: &FlightChange) -> Result<(), AppError> {
        if self.ports.store.apply_flight_change(change).await? {
            Ok(())
        } else {
            tracing::warn!(operator_id = %operator, "a flight money step raced another writer; the next pass looks again");
            Ok(())
        }
    }
}
