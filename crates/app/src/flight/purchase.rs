//! Buying a ticket: the ticket (`pending`) and its purchase debit (`sent`) are stored
//! before the wallet is called, in one transaction that also reads what the purchase is
//! decided on and holds the flight to its boarding phase, the player to the ticket cap
//! and the player's client ticket id to one ticket. The debit's answer then decides: applied while the flight still boards, the
//! ticket flies; applied after boarding closed, it is refunded (FLIGHT.md §2); refused,
//! it never flies; ambiguous, it goes to manual review and never flies. In production the
//! operator's production authorization is checked before anything is stored and again in
//! the transaction that stores the ticket: a debit is sent only for a ticket stored while
//! the operator was authorized.

use opinion_core::{OperatorId, TicketId, WalletOperationId};
use opinion_flight::{FlightPhase, Multiplier, Rupiah, TicketEvent, TicketStatus, check_order};
use opinion_wallet::{Classification, OperationState, RetryLimit, WalletMutation};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::events::RefundReason;
use crate::flight::model::{FlightRecord, TermsRecord, TicketRecord};
use crate::flight::money::purchase_mutation;
use crate::flight::moves::moved;
use crate::flight::ports::{FlightChange, NewTicket, TicketOpening, TicketUpdate};
use crate::flight::production_authorization;
use crate::opinion::trading::ports::{NewOperation, OperationUpdate};
use crate::players::{ActingPlayer, PlayerPrincipal};
use crate::ports::in_one_transaction;
use crate::wallet::call::call_wallet;
use crate::wallet::ports::WalletAdapterTarget;

/// What a player asks to buy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketOrder {
    /// The stake, whole rupiah.
    pub stake: Rupiah,
    /// Cash out automatically at this multiplier.
    pub auto_cash_out: Option<Multiplier>,
    /// The player's own id of this purchase (1–64 visible ASCII characters): a repeated
    /// purchase with it returns the first ticket instead of buying another.
    pub client_ticket_id: String,
}

/// A ticket stored `pending` with its `sent` purchase debit: what its wallet call needs.
struct OpenedPurchase {
    ticket: TicketRecord,
    flight: FlightRecord,
    target: WalletAdapterTarget,
    mutation: WalletMutation,
    purchase: NewOperation,
}

/// What a purchase is decided on, read before anything is stored.
struct PurchaseInputs {
    target: WalletAdapterTarget,
    flight: FlightRecord,
    terms: TermsRecord,
}

/// How a purchase's opening ended: stored and ready for its debit, or the repeat of a
/// ticket already bought under its client ticket id.
enum PurchaseOpening {
    Opened(Box<OpenedPurchase>),
    Replayed(Box<TicketRecord>),
}

impl FlightGame {
    /// Buys a ticket on the boarding flight; the answer is the ticket as its debit left
    /// it (`active`, `refunding`, `rejected` or `review`). The player is made sure of
    /// first, in the purchase's opening transaction.
    #[tracing::instrument(skip_all, fields(operator_id = %player.operator_id(), user_id))]
    pub async fn buy_ticket(&self, player: &impl ActingPlayer, order: &TicketOrder) -> Result<TicketRecord, AppError> {
        let opening = in_one_transaction(self.ports.transactions.as_ref(), async {
            let player = player.confirm().await?;
            tracing::Span::current().record("user_id", tracing::field::display(player.user.id));
            check_client_ticket_id(&order.client_ticket_id)?;
            self.open_purchase(&player, order).await
        })
        .await?;
        let opened = match opening {
            PurchaseOpening::Opened(opened) => *opened,
            PurchaseOpening::Replayed(first) => return same_order(*first, order),
        };
        let (classification, update) = call_wallet(
            self.ports.wallet.as_ref(),
            self.ports.clock.as_ref(),
            &opened.target,
            &opened.mutation,
            &opened.purchase.record,
            RetryLimit::DEFAULT,
        )
        .await?;
        self.debit_answered(opened.ticket, &opened.flight, &classification, update)
            .await
    }

    /// Everything a purchase reads and stores before its debit, as one step. A new
    /// purchase does not look for its client ticket id: a repeat is refused, by the
    /// unique key where the ticket is stored or by whatever else changed since its first
    /// purchase (the cap it reached, boarding closed, the product disabled), and every
    /// refusal is answered with the ticket bought under that id if there is one
    /// ([`Self::twin_or`]).
    async fn open_purchase(&self, player: &PlayerPrincipal, order: &TicketOrder) -> Result<PurchaseOpening, AppError> {
        match self.store_purchase(player, order).await {
            Err(refusal) if refuses(&refusal) => self.twin_or(player, order, refusal).await,
            answer => answer,
        }
    }

    /// What the purchase is decided on ([`Self::purchase_reads`]), then the ticket with
    /// its `sent` debit; the cap is counted where the ticket is stored.
    async fn store_purchase(&self, player: &PlayerPrincipal, order: &TicketOrder) -> Result<PurchaseOpening, AppError> {
        let now = self.ports.clock.now();
        let PurchaseInputs { target, flight, terms } = self.purchase_reads(player.operator_id, now).await?;
        let limits = terms.version.terms.limits();
        check_order(limits, order.stake, order.auto_cash_out).map_err(|refusal| refused(&refusal))?;
        let ticket = self.pending_ticket(player, order, &flight, &terms, now);
        let mutation = purchase_mutation(&ticket)?;
        let purchase = self.operation(
            ticket.purchase_operation_id,
            &ticket,
            &mutation,
            OperationState::Sent,
            now,
        );
        let new = NewTicket {
            ticket: ticket.clone(),
            purchase: purchase.clone(),
            cap: limits.tickets_per_flight(),
            production_authorization: self.settings.production_authorization,
        };
        match self.ports.store.open_ticket(&new).await? {
            TicketOpening::Opened => Ok(PurchaseOpening::Opened(Box::new(OpenedPurchase {
                ticket,
                flight,
                target,
                mutation,
                purchase,
            }))),
            TicketOpening::CapReached => Err(cap_reached(limits.tickets_per_flight())),
            TicketOpening::BoardingClosed => Err(boarding_closed()),
            TicketOpening::NotAuthorized => Err(production_authorization::missing()),
        }
    }

    /// The ticket the player already bought under `order`'s client ticket id, or else
    /// `refusal`: a repeated purchase, or a twin that committed while this one was
    /// decided, is answered with the first ticket whatever refused it.
    async fn twin_or(
        &self,
        player: &PlayerPrincipal,
        order: &TicketOrder,
        refusal: AppError,
    ) -> Result<PurchaseOpening, AppError> {
        match self
            .ports
            .store
            .find_client_ticket(player.operator_id, player.user.id, &order.client_ticket_id)
            .await?
        {
            Some(twin) => Ok(PurchaseOpening::Replayed(Box::new(twin))),
            None => Err(refusal),
        }
    }

    /// What a purchase reads before anything is stored: enablement, production
    /// authorization, the wallet target, the flight boarding at `now` and the terms in
    /// force. They need nothing from each other, so they are asked for together (one
    /// round trip in the opening's step) and judged in that order: the first refusal is
    /// the answer.
    async fn purchase_reads(&self, operator: OperatorId, now: OffsetDateTime) -> Result<PurchaseInputs, AppError> {
        let (enabled, authorized, target, flight, terms) = tokio::join!(
            self.ensure_enabled(operator),
            self.ensure_production_authorized(operator),
            self.wallet_target(operator),
            self.boarding_flight(now),
            self.current_terms(operator),
        );
        enabled?;
        authorized?;
        let (target, flight) = (target?, flight?);
        let terms = terms?.ok_or_else(|| AppError::Conflict {
            code: ProblemCode::ProductNotEnabled,
            detail: "the flight product has no terms in force for this operator".into(),
        })?;
        Ok(PurchaseInputs { target, flight, terms })
    }

    /// Stores the debit's answer with its consequence for the ticket; returns the ticket.
    async fn debit_answered(
        &self,
        ticket: TicketRecord,
        flight: &FlightRecord,
        classification: &Classification,
        update: OperationUpdate,
    ) -> Result<TicketRecord, AppError> {
        let now = update.step.at;
        let boarding_open = now < flight.take_off_at;
        let change = self.debit_change(&ticket, flight, classification, update.clone(), boarding_open)?;
        if self.ports.store.apply_flight_change(&change).await? {
            return Ok(changed_ticket(&change, ticket));
        }
        // The driver closed boarding between the answer and this step: the ticket is
        // refunded instead.
        let change = self.debit_change(&ticket, flight, classification, update, false)?;
        if self.ports.store.apply_flight_change(&change).await? {
            return Ok(changed_ticket(&change, ticket));
        }
        Err(AppError::Internal(format!(
            "ticket {} could not record its debit's answer",
            ticket.id
        )))
    }

    fn debit_change(
        &self,
        ticket: &TicketRecord,
        flight: &FlightRecord,
        classification: &Classification,
        update: OperationUpdate,
        boarding_open: bool,
    ) -> Result<FlightChange, AppError> {
        let now = update.step.at;
        let record = update.record.clone();
        let mut change = FlightChange::default();
        match classification {
            Classification::Applied { .. } => {
                change.events.push(self.ticket_purchased(ticket, now));
                if boarding_open {
                    change.flight_must_be = Some((flight.id, FlightPhase::Boarding));
                    change.tickets.push(TicketUpdate {
                        expected: TicketStatus::Pending,
                        ticket: moved(ticket, TicketEvent::DebitApplied { boarding_open: true }, now)?,
                    });
                } else {
                    self.refund_into(
                        &mut change,
                        ticket.clone(),
                        TicketEvent::DebitApplied { boarding_open: false },
                        RefundReason::BoardingClosed,
                        now,
                    )?;
                }
            }
            Classification::Rejected { .. } | Classification::NotSent => {
                let mut rejected = moved(ticket, TicketEvent::DebitRejected, now)?;
                rejected.settled_at = Some(now);
                rejected.failure_reason = record.detail.clone();
                change.tickets.push(TicketUpdate {
                    expected: TicketStatus::Pending,
                    ticket: rejected,
                });
            }
            Classification::Ambiguous { .. } => {
                change.events.push(self.review_event(&record, now));
                change.tickets.push(TicketUpdate {
                    expected: TicketStatus::Pending,
                    ticket: moved(ticket, TicketEvent::DebitAmbiguous, now)?,
                });
            }
        }
        change.operation = Some(update);
        Ok(change)
    }

    fn pending_ticket(
        &self,
        player: &PlayerPrincipal,
        order: &TicketOrder,
        flight: &FlightRecord,
        terms: &TermsRecord,
        now: OffsetDateTime,
    ) -> TicketRecord {
        TicketRecord {
            operator_id: player.operator_id,
            id: TicketId::from_ulid(self.ports.random.ulid()),
            flight_id: flight.id,
            user_id: player.user.id,
            external_user_id: player.user.external_user_id.clone(),
            client_ticket_id: order.client_ticket_id.clone(),
            stake: order.stake,
            auto_cash_out: order.auto_cash_out,
            status: TicketStatus::Pending,
            terms_id: terms.version.id,
            share_bps: terms.version.terms.share_bps(),
            max_payout: terms.version.terms.limits().max_payout(),
            purchase_operation_id: WalletOperationId::from_ulid(self.ports.random.ulid()),
            cash_out: None,
            cashed_out_at: None,
            payout: None,
            refund_reason: None,
            failure_reason: None,
            created_at: now,
            updated_at: now,
            settled_at: None,
        }
    }

    /// The flight boarding at `now`, or `boarding_closed`.
    async fn boarding_flight(&self, now: OffsetDateTime) -> Result<FlightRecord, AppError> {
        match self.ports.store.latest_flight().await? {
            Some(flight) if flight.phase == FlightPhase::Boarding && now < flight.take_off_at => Ok(flight),
            _ => Err(boarding_closed()),
        }
    }

    /// The operator's wallet adapter, which every ticket needs.
    pub(crate) async fn wallet_target(&self, operator: OperatorId) -> Result<WalletAdapterTarget, AppError> {
        self.ports
            .wallet_adapters
            .find_wallet_target(operator)
            .await?
            .ok_or_else(|| AppError::Conflict {
                code: ProblemCode::WalletAdapterNotConfigured,
                detail: "the operator has no wallet adapter configured".into(),
            })
    }
}

/// The ticket as the change leaves it.
fn changed_ticket(change: &FlightChange, before: TicketRecord) -> TicketRecord {
    change
        .tickets
        .first()
        .map(|update| update.ticket.clone())
        .unwrap_or(before)
}

/// Whether `error` refuses the purchase on what it was decided on, rather than failing:
/// a refusal gives way to a ticket already bought under the same client ticket id.
fn refuses(error: &AppError) -> bool {
    matches!(error, AppError::Conflict { .. } | AppError::Invalid { .. })
}

/// A repeated client ticket id returns its first ticket, if it was the same order.
fn same_order(first: TicketRecord, order: &TicketOrder) -> Result<TicketRecord, AppError> {
    if first.stake == order.stake && first.auto_cash_out == order.auto_cash_out {
        Ok(first)
    } else {
        Err(AppError::Conflict {
            code: ProblemCode::ClientTicketIdReused,
            detail: format!(
                "client ticket id `{}` was used for another ticket",
                order.client_ticket_id
            ),
        })
    }
}

/// The longest client ticket id.
pub const CLIENT_TICKET_ID_MAX_LEN: usize = 64;

/// `check_client_ticket_id`'s rule as a regular expression, for the OpenAPI document.
pub const CLIENT_TICKET_ID_PATTERN: &str = "^[!-~]{1,64}$";

/// A client ticket id is 1 to 64 visible ASCII characters.
pub fn check_client_ticket_id(id: &str) -> Result<(), AppError> {
    let visible = id.bytes().all(|b| b.is_ascii_graphic());
    if (1..=CLIENT_TICKET_ID_MAX_LEN).contains(&id.len()) && visible {
        Ok(())
    } else {
        Err(AppError::invalid(
            "clientTicketId",
            "must be 1 to 64 visible ASCII characters",
        ))
    }
}

/// A ticket rule's refusal, naming the field and the limit.
fn refused(refusal: &opinion_flight::TicketRefusal) -> AppError {
    use opinion_flight::TicketRefusal as R;
    match refusal {
        R::TooManyTickets { cap } => cap_reached(*cap),
        R::AutoCashOutOutOfRange { .. } => AppError::invalid("autoCashOut", refusal),
        R::StakeBelowMinimum { .. } | R::StakeAboveMaximum { .. } => AppError::invalid("stake", refusal),
    }
}

fn cap_reached(cap: u8) -> AppError {
    AppError::Conflict {
        code: ProblemCode::TicketCapReached,
        detail: format!("a player may hold at most {cap} tickets on one flight"),
    }
}

fn boarding_closed() -> AppError {
    AppError::Conflict {
        code: ProblemCode::BoardingClosed,
        detail: "no flight is boarding now; buy when the next flight boards".into(),
    }
}
