//! An in-memory `FlightStore` with the store's compare-and-set semantics, and a clock the
//! test moves, so the flight engine's tests play whole flights step by step.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use opinion_core::{FlightChainId, FlightId, FlightTermsId, OperatorId, TicketId, UserId, WalletOperationId};
use opinion_flight::{
    AuthorizationRequirement, ChainLength, FlightPhase, FlightTiming, Multiplier, ProductionAuthorization, Revocation,
    Seed, TicketStatus, authorizes_purchase, may_hold_another,
};
use opinion_wallet::Product;
use time::OffsetDateTime;

use crate::flight::FlightSettings;
use crate::flight::model::{ChainRecord, Enablement, FlightRecord, TermsCancellation, TermsRecord, TicketRecord};
use crate::flight::ports::{
    FeedCashOutRow, FeedTally, FlightChange, FlightStore, NewTicket, TicketFilter, TicketOpening,
};
use crate::model::{NewEvent, WalletOperationRecord};
use crate::opinion::settlement::WorkerSettings;
use crate::ports::{Clock, StoreError, UniqueKey};

/// A clock the test sets and advances.
#[derive(Debug)]
pub struct ManualClock(Mutex<OffsetDateTime>);

impl ManualClock {
    pub fn at(now: OffsetDateTime) -> Arc<Self> {
        Arc::new(Self(Mutex::new(now)))
    }

    pub fn set(&self, now: OffsetDateTime) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = now;
    }

    pub fn advance_ms(&self, millis: i64) {
        let mut now = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *now += time::Duration::milliseconds(millis);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Settings for engine tests: 5 s boarding, 3 s pause, a 10-flight chain.
pub fn settings() -> FlightSettings {
    FlightSettings {
        timing: FlightTiming::new(5_000, 3_000).expect("timing"),
        chain_length: ChainLength::new(10).expect("length"),
        settle_delay: std::time::Duration::from_millis(1_000),
        tick: std::time::Duration::from_millis(100),
        tickets_a_step: 500,
        money: WorkerSettings::default(),
        production_authorization: AuthorizationRequirement::NotRequired,
    }
}

/// What the in-memory store holds.
#[derive(Debug, Default)]
pub struct Memory {
    pub chains: Vec<(ChainRecord, Seed)>,
    pub flights: Vec<FlightRecord>,
    pub tickets: BTreeMap<TicketId, TicketRecord>,
    pub operations: Vec<WalletOperationRecord>,
    pub events: Vec<NewEvent>,
    pub enablements: BTreeMap<OperatorId, Enablement>,
    pub terms: Vec<TermsRecord>,
    pub authorizations: Vec<ProductionAuthorization>,
    /// A ticket that commits just before the next purchase takes its player's lock: a
    /// twin purchase that the next one's reads did not see.
    pub arriving_twin: Option<TicketRecord>,
    /// How many times a ticket was looked for by its client ticket id.
    pub client_ticket_lookups: usize,
}

/// The in-memory store.
#[derive(Debug, Default, Clone)]
pub struct MemoryFlightStore(pub Arc<Mutex<Memory>>);

impl MemoryFlightStore {
    pub fn memory(&self) -> std::sync::MutexGuard<'_, Memory> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Up to `limit` tickets that are `wanted`, in the order a step locks them.
    fn in_lock_order(&self, limit: u32, wanted: impl Fn(&TicketRecord) -> bool) -> Vec<TicketRecord> {
        let mut tickets: Vec<TicketRecord> = self
            .memory()
            .tickets
            .values()
            .filter(|ticket| wanted(ticket))
            .cloned()
            .collect();
        tickets.sort_by_key(|ticket| (ticket.operator_id, ticket.id));
        tickets.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        tickets
    }
}

fn flights_of_chain(memory: &Memory, chain: FlightChainId) -> Option<u32> {
    memory
        .flights
        .iter()
        .filter(|flight| flight.chain_id == chain)
        .map(|flight| flight.number)
        .max()
}

#[async_trait]
impl FlightStore for MemoryFlightStore {
    async fn current_chain(&self) -> Result<Option<(ChainRecord, Option<u32>)>, StoreError> {
        let memory = self.memory();
        Ok(memory
            .chains
            .last()
            .map(|(chain, _)| (chain.clone(), flights_of_chain(&memory, chain.id))))
    }

    async fn create_chain(&self, chain: &ChainRecord, terminal: &Seed) -> Result<(), StoreError> {
        self.memory().chains.push((chain.clone(), terminal.clone()));
        Ok(())
    }

    async fn terminal_seed(&self, chain: FlightChainId) -> Result<Seed, StoreError> {
        let memory = self.memory();
        let found = memory.chains.iter().find(|(record, _)| record.id == chain);
        found
            .map(|(_, seed)| seed.clone())
            .ok_or(StoreError::Unavailable("no such chain".into()))
    }

    async fn chains(&self, limit: u32) -> Result<Vec<ChainRecord>, StoreError> {
        let memory = self.memory();
        let newest_first = memory.chains.iter().rev().take(limit as usize);
        Ok(newest_first.map(|(chain, _)| chain.clone()).collect())
    }

    async fn latest_flight(&self) -> Result<Option<FlightRecord>, StoreError> {
        Ok(self.memory().flights.last().cloned())
    }

    async fn find_flight(&self, id: FlightId) -> Result<Option<FlightRecord>, StoreError> {
        Ok(self.memory().flights.iter().find(|flight| flight.id == id).cloned())
    }

    async fn flights(
        &self,
        before: Option<(OffsetDateTime, FlightId)>,
        limit: u32,
    ) -> Result<Vec<FlightRecord>, StoreError> {
        let memory = self.memory();
        let older = memory
            .flights
            .iter()
            .rev()
            .filter(|flight| before.is_none_or(|(at, id)| (flight.boarding_at, flight.id) < (at, id)));
        Ok(older.take(limit as usize).cloned().collect())
    }

    async fn open_flight(&self, flight: &FlightRecord) -> Result<bool, StoreError> {
        let mut memory = self.memory();
        let unfinished = memory.flights.iter().any(|other| !other.phase.is_over());
        let taken = memory
            .flights
            .iter()
            .any(|other| other.chain_id == flight.chain_id && other.number == flight.number);
        if unfinished || taken {
            return Ok(false);
        }
        memory.flights.push(flight.clone());
        Ok(true)
    }

    async fn flight_tickets(
        &self,
        flight: FlightId,
        statuses: &[TicketStatus],
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError> {
        Ok(self.in_lock_order(limit, |ticket| {
            ticket.flight_id == flight && statuses.contains(&ticket.status)
        }))
    }

    async fn tickets_due(
        &self,
        flight: FlightId,
        reached: Multiplier,
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError> {
        Ok(self.in_lock_order(limit, |ticket| {
            ticket.flight_id == flight
                && ticket.status == TicketStatus::Active
                && ticket.auto_cash_out.is_some_and(|target| target <= reached)
        }))
    }

    async fn live_feed(
        &self,
        flight: FlightId,
        since: OffsetDateTime,
        limit: u32,
    ) -> Result<(FeedTally, Vec<FeedCashOutRow>), StoreError> {
        let memory = self.memory();
        let flying = [TicketStatus::Active, TicketStatus::CashedOut, TicketStatus::Lost];
        let aboard: Vec<&TicketRecord> = memory
            .tickets
            .values()
            .filter(|ticket| ticket.flight_id == flight && flying.contains(&ticket.status))
            .collect();
        let players: std::collections::BTreeSet<_> = aboard
            .iter()
            .map(|ticket| (ticket.operator_id, ticket.user_id))
            .collect();
        let mut rows: Vec<FeedCashOutRow> = aboard
            .iter()
            .filter(|ticket| ticket.status == TicketStatus::CashedOut)
            .filter_map(|ticket| {
                Some(FeedCashOutRow {
                    operator_id: ticket.operator_id,
                    ticket_id: ticket.id,
                    user_id: ticket.user_id,
                    multiplier: ticket.cash_out?,
                    payout: ticket.payout?,
                    cashed_out_at: ticket.cashed_out_at.filter(|at| *at >= since)?,
                })
            })
            .collect();
        let tally = FeedTally {
            players: u32::try_from(players.len()).unwrap_or(u32::MAX),
            tickets: u32::try_from(aboard.len()).unwrap_or(u32::MAX),
            cashed_out: u32::try_from(aboard.iter().filter(|t| t.status == TicketStatus::CashedOut).count())
                .unwrap_or(u32::MAX),
        };
        rows.sort_by_key(|row| std::cmp::Reverse((row.cashed_out_at, row.ticket_id)));
        rows.truncate(limit as usize);
        Ok((tally, rows))
    }

    async fn apply_flight_change(&self, change: &FlightChange) -> Result<bool, StoreError> {
        let mut memory = self.memory();
        let phase_of = |memory: &Memory, id: FlightId| {
            memory
                .flights
                .iter()
                .find(|flight| flight.id == id)
                .map(|flight| flight.phase)
        };
        if let Some((id, phase)) = change.flight_must_be
            && phase_of(&memory, id) != Some(phase)
        {
            return Ok(false);
        }
        if let Some(update) = &change.flight
            && phase_of(&memory, update.flight.id) != Some(update.expected)
        {
            return Ok(false);
        }
        for update in &change.tickets {
            let current = memory.tickets.get(&update.ticket.id).map(|ticket| ticket.status);
            if current != Some(update.expected) {
                return Ok(false);
            }
        }
        if let Some(update) = &change.operation {
            let current = memory
                .operations
                .iter()
                .find(|op| op.id == update.id)
                .map(|op| op.state);
            if current != Some(update.expected) {
                return Ok(false);
            }
        }
        if let Some(update) = &change.flight
            && let Some(flight) = memory.flights.iter_mut().find(|flight| flight.id == update.flight.id)
        {
            *flight = update.flight.clone();
        }
        for update in &change.tickets {
            memory.tickets.insert(update.ticket.id, update.ticket.clone());
        }
        for new in &change.new_operations {
            memory.operations.push(new.record.clone());
        }
        if let Some(update) = &change.operation
            && let Some(op) = memory.operations.iter_mut().find(|op| op.id == update.id)
        {
            *op = update.record.clone();
        }
        memory.events.extend(change.events.iter().cloned());
        Ok(true)
    }

    async fn open_ticket(&self, new: &NewTicket) -> Result<TicketOpening, StoreError> {
        let mut memory = self.memory();
        if let Some(twin) = memory.arriving_twin.take() {
            memory.tickets.insert(twin.id, twin);
        }
        let ticket = &new.ticket;
        let own: Vec<ProductionAuthorization> = memory
            .authorizations
            .iter()
            .filter(|record| record.operator_id == ticket.operator_id)
            .cloned()
            .collect();
        if !authorizes_purchase(new.production_authorization, &own, ticket.created_at) {
            return Ok(TicketOpening::NotAuthorized);
        }
        let boarding = memory
            .flights
            .iter()
            .any(|flight| flight.id == ticket.flight_id && flight.phase == FlightPhase::Boarding);
        if !boarding {
            return Ok(TicketOpening::BoardingClosed);
        }
        let held = memory
            .tickets
            .values()
            .filter(|other| {
                other.operator_id == ticket.operator_id
                    && other.user_id == ticket.user_id
                    && other.flight_id == ticket.flight_id
                    && other.status.holds_a_place()
            })
            .count();
        if !may_hold_another(u64::try_from(held).unwrap_or(u64::MAX), new.cap) {
            return Ok(TicketOpening::CapReached);
        }
        if client_ticket(
            &memory.tickets,
            ticket.operator_id,
            ticket.user_id,
            &ticket.client_ticket_id,
        )
        .is_some()
        {
            return Err(StoreError::Duplicate(UniqueKey::ClientTicket));
        }
        memory.tickets.insert(ticket.id, ticket.clone());
        memory.operations.push(new.purchase.record.clone());
        Ok(TicketOpening::Opened)
    }

    async fn find_client_ticket(
        &self,
        operator: OperatorId,
        user: UserId,
        client_ticket_id: &str,
    ) -> Result<Option<TicketRecord>, StoreError> {
        let mut memory = self.memory();
        memory.client_ticket_lookups += 1;
        Ok(client_ticket(&memory.tickets, operator, user, client_ticket_id).cloned())
    }

    async fn find_flight_operation(&self, id: WalletOperationId) -> Result<Option<WalletOperationRecord>, StoreError> {
        let memory = self.memory();
        Ok(memory
            .operations
            .iter()
            .find(|op| op.id == id && op.flow.product() == Product::Flight)
            .cloned())
    }

    async fn find_ticket(&self, operator: OperatorId, id: TicketId) -> Result<Option<TicketRecord>, StoreError> {
        let memory = self.memory();
        Ok(memory
            .tickets
            .get(&id)
            .filter(|ticket| ticket.operator_id == operator)
            .cloned())
    }

    async fn tickets(
        &self,
        operator: OperatorId,
        filter: TicketFilter,
        before: Option<TicketId>,
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError> {
        let memory = self.memory();
        let matching = memory.tickets.values().rev().filter(|ticket| {
            ticket.operator_id == operator
                && filter.user.is_none_or(|user| ticket.user_id == user)
                && filter.flight.is_none_or(|flight| ticket.flight_id == flight)
                && before.is_none_or(|before| ticket.id < before)
        });
        Ok(matching.take(limit as usize).cloned().collect())
    }

    async fn operators_with_flight_wallet_work(
        &self,
        _now: OffsetDateTime,
        _lost_before: OffsetDateTime,
    ) -> Result<Vec<OperatorId>, StoreError> {
        let memory = self.memory();
        let mut operators: Vec<_> = memory.operations.iter().map(|op| op.operator_id).collect();
        operators.dedup();
        Ok(operators)
    }

    async fn claim_due_flight_operations(
        &self,
        operator: OperatorId,
        _now: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        let mut memory = self.memory();
        let mut claimed = Vec::new();
        for op in memory.operations.iter_mut() {
            if op.operator_id == operator
                && op.state == opinion_wallet::OperationState::Prepared
                && claimed.len() < limit as usize
            {
                op.state = opinion_wallet::OperationState::Sent;
                op.attempts += 1;
                claimed.push(op.clone());
            }
        }
        Ok(claimed)
    }

    async fn stale_flight_operations(
        &self,
        _operator: OperatorId,
        _before: OffsetDateTime,
        _limit: u32,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        Ok(Vec::new())
    }

    async fn find_enablement(&self, operator: OperatorId) -> Result<Option<Enablement>, StoreError> {
        Ok(self.memory().enablements.get(&operator).cloned())
    }

    async fn save_enablement(&self, enablement: &Enablement) -> Result<(), StoreError> {
        self.memory()
            .enablements
            .insert(enablement.operator_id, enablement.clone());
        Ok(())
    }

    async fn production_authorizations(
        &self,
        operator: OperatorId,
    ) -> Result<Vec<ProductionAuthorization>, StoreError> {
        let memory = self.memory();
        Ok(memory
            .authorizations
            .iter()
            .filter(|record| record.operator_id == operator)
            .cloned()
            .collect())
    }

    async fn add_production_authorization(&self, authorization: &ProductionAuthorization) -> Result<(), StoreError> {
        self.memory().authorizations.push(authorization.clone());
        Ok(())
    }

    async fn revoke_production_authorizations(
        &self,
        operator: OperatorId,
        revocation: &Revocation,
    ) -> Result<usize, StoreError> {
        let mut memory = self.memory();
        let mut stopped = 0;
        for record in &mut memory.authorizations {
            if record.operator_id == operator && record.is_valid_at(revocation.at) {
                record.revocation = Some(revocation.clone());
                stopped += 1;
            }
        }
        Ok(stopped)
    }

    async fn terms_versions(&self, operator: OperatorId) -> Result<Vec<TermsRecord>, StoreError> {
        let memory = self.memory();
        Ok(memory
            .terms
            .iter()
            .filter(|terms| terms.operator_id == operator)
            .cloned()
            .collect())
    }

    async fn schedule_terms(&self, terms: &TermsRecord, event: &NewEvent) -> Result<(), StoreError> {
        let mut memory = self.memory();
        memory.terms.push(terms.clone());
        memory.events.push(event.clone());
        Ok(())
    }

    async fn cancel_terms(
        &self,
        operator: OperatorId,
        id: FlightTermsId,
        cancellation: &TermsCancellation,
    ) -> Result<bool, StoreError> {
        let mut memory = self.memory();
        let found = memory.terms.iter_mut().find(|terms| {
            terms.operator_id == operator
                && terms.version.id == id
                && terms.cancelled.is_none()
                && terms.version.effective_from > cancellation.at
        });
        Ok(found
            .map(|terms| terms.cancelled = Some(cancellation.clone()))
            .is_some())
    }

    async fn add_terms(&self, terms: &TermsRecord) -> Result<(), StoreError> {
        self.memory().terms.push(terms.clone());
        Ok(())
    }
}

/// The player's ticket bought under `client_ticket_id`, among `tickets`.
fn client_ticket<'a>(
    tickets: &'a BTreeMap<TicketId, TicketRecord>,
    operator: OperatorId,
    user: UserId,
    client_ticket_id: &str,
) -> Option<&'a TicketRecord> {
    tickets.values().find(|ticket| {
        ticket.operator_id == operator && ticket.user_id == user && ticket.client_ticket_id == client_ticket_id
    })
}
