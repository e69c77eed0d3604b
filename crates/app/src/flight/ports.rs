//! Persistence of the flight product, and the lock that makes one instance the driver.
//!
//! Every change of a flight or a ticket is ONE `FlightChange`, applied atomically with
//! compare-and-set preconditions (the flight's phase, each ticket's status, each wallet
//! operation's state), with its wallet operations and webhook events: the use cases
//! decide with the game's rules and the store commits a whole step or nothing.

use async_trait::async_trait;
use opinion_core::{FlightChainId, FlightId, FlightTermsId, OperatorId, TicketId, UserId, WalletOperationId};
use opinion_flight::{
    AuthorizationRequirement, FlightPhase, Multiplier, ProductionAuthorization, Revocation, Rupiah, Seed, TicketStatus,
};
use time::OffsetDateTime;

use crate::flight::model::{ChainRecord, Enablement, FlightRecord, TermsCancellation, TermsRecord, TicketRecord};
use crate::model::{NewEvent, WalletOperationRecord};
use crate::opinion::trading::ports::{NewOperation, OperationUpdate};
use crate::ports::StoreError;

/// A flight's move, applied only if it is still in `expected`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightUpdate {
    /// The phase it must be in.
    pub expected: FlightPhase,
    /// The flight afterwards.
    pub flight: FlightRecord,
}

/// A ticket's move, applied only if it is still in `expected`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketUpdate {
    /// The status it must be in.
    pub expected: TicketStatus,
    /// The ticket afterwards.
    pub ticket: TicketRecord,
}

/// One atomic step of the flight product. All of it is stored, or nothing (`false`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FlightChange {
    /// A flight to move.
    pub flight: Option<FlightUpdate>,
    /// A flight that must be in this phase while the step commits (held against a
    /// driver moving it meanwhile).
    pub flight_must_be: Option<(FlightId, FlightPhase)>,
    /// Tickets to move.
    pub tickets: Vec<TicketUpdate>,
    /// Wallet operations to insert.
    pub new_operations: Vec<NewOperation>,
    /// A wallet operation to move.
    pub operation: Option<OperationUpdate>,
    /// Events caused by the step.
    pub events: Vec<NewEvent>,
}

/// A ticket to insert with its purchase debit (`sent`).
#[derive(Debug, Clone, PartialEq)]
pub struct NewTicket {
    /// The ticket, `pending`.
    pub ticket: TicketRecord,
    /// Its purchase debit, stored `sent` before the call.
    pub purchase: NewOperation,
    /// How many tickets the player may hold on the flight.
    pub cap: u8,
    /// Whether the operator needs a valid production authorization at the ticket's
    /// `created_at`, checked again in the transaction (a revocation is never missed).
    pub production_authorization: AuthorizationRequirement,
}

/// What storing a new ticket did.
#[derive(Debug, Clone, PartialEq)]
pub enum TicketOpening {
    /// Stored: the debit may be sent.
    Opened,
    /// Nothing stored: the player holds the cap of tickets on the flight.
    CapReached,
    /// Nothing stored: the flight is no longer boarding.
    BoardingClosed,
    /// Nothing stored: the operator holds no valid production authorization (revoked or
    /// expired meanwhile).
    NotAuthorized,
}

/// A page of the player's or the operator's tickets, newest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketFilter {
    /// Only this player's.
    pub user: Option<UserId>,
    /// Only this flight's.
    pub flight: Option<FlightId>,
    /// Only tickets bought at or after.
    pub from: Option<OffsetDateTime>,
    /// Only tickets bought before.
    pub to: Option<OffsetDateTime>,
}

/// A flight's counts for the live feed, over every operator's tickets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeedTally {
    /// Players holding a ticket that flies or flew (`active`, `cashed_out`, `lost`).
    pub players: u32,
    /// Tickets that fly or flew.
    pub tickets: u32,
    /// Tickets cashed out.
    pub cashed_out: u32,
}

/// One cash-out as the live feed reads it. Whose it is stays inside the service: the
/// feed uses it to mark a player's own cash-outs on that player's stream only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedCashOutRow {
    pub operator_id: OperatorId,
    pub ticket_id: TicketId,
    pub user_id: UserId,
    /// The multiplier it was cashed out at.
    pub multiplier: Multiplier,
    pub payout: Rupiah,
    /// The instant of the cash-out (an auto cash-out's is when the curve reached it).
    pub cashed_out_at: OffsetDateTime,
}

/// Flights, chains, tickets, terms and enablement.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait FlightStore: Send + Sync {
    /// The newest chain and the number of its last flight (`None` before its first).
    async fn current_chain(&self) -> Result<Option<(ChainRecord, Option<u32>)>, StoreError>;
    /// Stores a new chain with its terminal seed (sealed at rest).
    async fn create_chain(&self, chain: &ChainRecord, terminal: &Seed) -> Result<(), StoreError>;
    /// The chain's terminal seed, unsealed (the driver derives each flight's seed).
    async fn terminal_seed(&self, chain: FlightChainId) -> Result<Seed, StoreError>;
    /// Every chain, newest first (their commitments are public).
    async fn chains(&self, limit: u32) -> Result<Vec<ChainRecord>, StoreError>;

    /// The newest flight.
    async fn latest_flight(&self) -> Result<Option<FlightRecord>, StoreError>;
    /// A flight by id.
    async fn find_flight(&self, id: FlightId) -> Result<Option<FlightRecord>, StoreError>;
    /// Up to `limit` flights that boarded before `before` (all when `None`), newest first.
    async fn flights(
        &self,
        before: Option<(OffsetDateTime, FlightId)>,
        limit: u32,
    ) -> Result<Vec<FlightRecord>, StoreError>;
    /// Inserts a boarding flight; `false` (nothing stored) when another flight is still
    /// unfinished or its number is taken: another driver came first.
    async fn open_flight(&self, flight: &FlightRecord) -> Result<bool, StoreError>;
    /// Up to `limit` of the flight's tickets in `statuses`, of every operator, in the
    /// order a step locks them (operator, then ticket).
    async fn flight_tickets(
        &self,
        flight: FlightId,
        statuses: &[TicketStatus],
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError>;
    /// Up to `limit` of the flight's active tickets whose auto cash-out target is at most
    /// `reached`, of every operator, in the order a step locks them: what the driver reads
    /// at each tick in the air, however many other tickets the flight sold.
    async fn tickets_due(
        &self,
        flight: FlightId,
        reached: Multiplier,
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError>;

    /// The live feed's read of a flight, over every operator: its counts, and up to
    /// `limit` of its cash-outs at or after `since`, newest first.
    async fn live_feed(
        &self,
        flight: FlightId,
        since: OffsetDateTime,
        limit: u32,
    ) -> Result<(FeedTally, Vec<FeedCashOutRow>), StoreError>;

    /// Applies the step atomically; `false` (nothing stored) when a precondition failed.
    async fn apply_flight_change(&self, change: &FlightChange) -> Result<bool, StoreError>;

    /// Stores a new ticket and its debit if the operator is authorized as `new` requires,
    /// the flight is boarding and the player holds fewer than the cap, in one
    /// transaction; `Duplicate(ClientTicket)` (nothing stored) if the player already
    /// bought under its client ticket id.
    async fn open_ticket(&self, new: &NewTicket) -> Result<TicketOpening, StoreError>;
    /// The player's ticket bought under `client_ticket_id`: a repeated purchase's answer.
    async fn find_client_ticket(
        &self,
        operator: OperatorId,
        user: UserId,
        client_ticket_id: &str,
    ) -> Result<Option<TicketRecord>, StoreError>;
    /// A flight wallet operation by id (`None` for another product's).
    async fn find_flight_operation(&self, id: WalletOperationId) -> Result<Option<WalletOperationRecord>, StoreError>;
    /// A ticket of the operator.
    async fn find_ticket(&self, operator: OperatorId, id: TicketId) -> Result<Option<TicketRecord>, StoreError>;
    /// Up to `limit` tickets of the operator matching `filter`, older than `before`.
    async fn tickets(
        &self,
        operator: OperatorId,
        filter: TicketFilter,
        before: Option<TicketId>,
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError>;

    /// Operators with flight payouts or refunds due at `now`, or flight calls sent
    /// before `lost_before` and never answered.
    async fn operators_with_flight_wallet_work(
        &self,
        now: OffsetDateTime,
        lost_before: OffsetDateTime,
    ) -> Result<Vec<OperatorId>, StoreError>;
    /// Claims up to `limit` of the operator's due flight credits (`prepared`, due), marking
    /// them `sent` before returning them, skipping those another worker holds.
    async fn claim_due_flight_operations(
        &self,
        operator: OperatorId,
        now: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<WalletOperationRecord>, StoreError>;
    /// The operator's flight operations sent before `before` and never answered.
    async fn stale_flight_operations(
        &self,
        operator: OperatorId,
        before: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<WalletOperationRecord>, StoreError>;

    /// Whether the operator's players may buy tickets.
    async fn find_enablement(&self, operator: OperatorId) -> Result<Option<Enablement>, StoreError>;
    /// Stores the operator's enablement.
    async fn save_enablement(&self, enablement: &Enablement) -> Result<(), StoreError>;
    /// Every production authorization of the operator, revoked and expired ones included.
    async fn production_authorizations(&self, operator: OperatorId)
    -> Result<Vec<ProductionAuthorization>, StoreError>;
    /// Stores a new production authorization.
    async fn add_production_authorization(&self, authorization: &ProductionAuthorization) -> Result<(), StoreError>;
    /// Stamps `revocation` on every authorization of the operator in force at its
    /// instant; how many it stopped (none: nothing was in force).
    async fn revoke_production_authorizations(
        &self,
        operator: OperatorId,
        revocation: &Revocation,
    ) -> Result<usize, StoreError>;
    /// Every terms version of the operator (cancelled ones included).
    async fn terms_versions(&self, operator: OperatorId) -> Result<Vec<TermsRecord>, StoreError>;
    /// Stores a new terms version.
    async fn add_terms(&self, terms: &TermsRecord) -> Result<(), StoreError>;
    /// Stores a scheduled terms version with its `mini_app.flight.terms.scheduled` event,
    /// in one transaction.
    async fn schedule_terms(&self, terms: &TermsRecord, event: &NewEvent) -> Result<(), StoreError>;
    /// Cancels the operator's version `id` if it is not cancelled and takes effect after
    /// `cancellation.at`; `false`, nothing written, otherwise.
    async fn cancel_terms(
        &self,
        operator: OperatorId,
        id: FlightTermsId,
        cancellation: &TermsCancellation,
    ) -> Result<bool, StoreError>;
}

/// Held by the one instance that drives flights; released when dropped or when the
/// connection holding it dies.
#[async_trait]
pub trait DriverLease: Send + Sync {
    /// Whether the lease is still held (the driver stops at once when it is not).
    async fn still_held(&mut self) -> bool;
}

/// Elects the one instance that drives flights.
#[async_trait]
pub trait DriverLock: Send + Sync {
    /// Becomes the driver if no other instance is; `None` when another one is.
    async fn try_acquire(&self) -> Result<Option<Box<dyn DriverLease>>, StoreError>;
}
