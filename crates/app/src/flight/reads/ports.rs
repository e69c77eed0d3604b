//! What an operator reads about the flight product, in the use cases' terms. Flights are
//! platform-wide; everything else (enablement, terms, tickets, their totals and wallet
//! operations) is read for one operator and answers only with that operator's rows.

use async_trait::async_trait;
use opinion_core::{
    FlightChainId, FlightChainKind, FlightId, FlightKind, OperatorId, Page, PageRequest, TicketId, TicketKind,
    WalletOperationId, WalletOperationKind,
};
use opinion_flight::{FlightPhase, ProductionAuthorization, Rupiah, TicketStatus, gross_gaming_revenue};
use opinion_wallet::{OperationState, WalletFlow};

use crate::flight::model::{ChainRecord, Enablement, FlightRecord, TermsRecord, TicketRecord};
use crate::model::{WalletOperationRecord, WalletOperationStep};
use crate::opinion::reads::ports::TimeRange;
use crate::ports::StoreError;

/// Which flights to list (by boarding time).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FlightFilter {
    /// Only flights that started boarding in this window.
    pub boarded: TimeRange,
    /// Only flights in this phase (as stored).
    pub phase: Option<FlightPhase>,
}

/// A seed chain with the flights it has played so far, as the public commitment route
/// shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainSummary {
    /// The chain's public data: commitment, salt, length, creation.
    pub chain: ChainRecord,
    /// The lowest number among its flights (`None` before its first flight boards).
    pub first_flight: Option<u32>,
    /// The highest number among its flights.
    pub last_flight: Option<u32>,
}

/// Which of the operator's tickets to list or total (by purchase time).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TicketFilter {
    /// Only this flight's.
    pub flight_id: Option<FlightId>,
    /// Only this player's (the operator's id of the player).
    pub external_user_id: Option<String>,
    /// Only tickets in this status.
    pub status: Option<TicketStatus>,
    /// Only tickets bought in this window.
    pub purchased: TimeRange,
}

/// Which of the operator's flight wallet operations to list (by creation time).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlightOperationFilter {
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only this flight's.
    pub flight_id: Option<FlightId>,
    /// Only this ticket's.
    pub ticket_id: Option<TicketId>,
    /// Only this flow (one of the flight product's).
    pub flow: Option<WalletFlow>,
    /// Only operations in this state.
    pub state: Option<OperationState>,
    /// Only operations created in this window.
    pub created: TimeRange,
}

/// The money of a set of tickets, in whole rupiah, as the overview and a flight's detail
/// show it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TicketTotals {
    /// Every ticket, whatever its status.
    pub tickets: i64,
    /// Distinct players among them.
    pub players: i64,
    /// Tickets whose money is not decided yet (`pending`, `active`, `review`).
    pub unsettled: i64,
    /// Stakes taken: tickets whose debit went through (`active`, `cashed_out`, `lost`,
    /// `refunding`, `refunded`).
    pub stakes: Rupiah,
    /// What cashed-out tickets pay.
    pub payouts: Rupiah,
    /// Stakes given back or owed back (`refunding`, `refunded`).
    pub refunds: Rupiah,
}

impl TicketTotals {
    /// Gross gaming revenue, `stakes − payouts − refunds` (the domain's rule).
    pub fn ggr(&self) -> i64 {
        gross_gaming_revenue(self.stakes, self.payouts, self.refunds)
    }
}

/// The flight product's operator reads.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait FlightReadStore: Send + Sync {
    /// Whether the operator's players may buy tickets (`None` until staff decided).
    async fn enablement(&self, operator: OperatorId) -> Result<Option<Enablement>, StoreError>;
    /// Every terms version of the operator, cancelled ones included.
    async fn terms_versions(&self, operator: OperatorId) -> Result<Vec<TermsRecord>, StoreError>;
    /// Every production authorization of the operator, revoked and expired ones included.
    async fn production_authorizations(&self, operator: OperatorId)
    -> Result<Vec<ProductionAuthorization>, StoreError>;
    /// The newest flight, whatever its phase.
    async fn latest_flight(&self) -> Result<Option<FlightRecord>, StoreError>;
    /// One page of flights, newest first.
    async fn list_flights(
        &self,
        filter: &FlightFilter,
        page: PageRequest<FlightKind>,
    ) -> Result<Page<FlightRecord, FlightKind>, StoreError>;
    /// One flight.
    async fn find_flight(&self, id: FlightId) -> Result<Option<FlightRecord>, StoreError>;
    /// One page of seed chains, newest first, each with the numbers of its first and last
    /// flight.
    async fn list_chains(
        &self,
        page: PageRequest<FlightChainKind>,
    ) -> Result<Page<ChainSummary, FlightChainKind>, StoreError>;
    /// One seed chain with the numbers of its first and last flight.
    async fn find_chain(&self, id: FlightChainId) -> Result<Option<ChainSummary>, StoreError>;
    /// One page of the operator's tickets, newest first.
    async fn list_tickets(
        &self,
        operator: OperatorId,
        filter: &TicketFilter,
        page: PageRequest<TicketKind>,
    ) -> Result<Page<TicketRecord, TicketKind>, StoreError>;
    /// One ticket of the operator.
    async fn find_ticket(&self, operator: OperatorId, id: TicketId) -> Result<Option<TicketRecord>, StoreError>;
    /// The totals of the operator's tickets matching `filter`, in one query.
    async fn ticket_totals(&self, operator: OperatorId, filter: &TicketFilter) -> Result<TicketTotals, StoreError>;
    /// One page of the operator's flight wallet operations (the flight product's flows
    /// only), newest first.
    async fn list_wallet_operations(
        &self,
        operator: OperatorId,
        filter: &FlightOperationFilter,
        page: PageRequest<WalletOperationKind>,
    ) -> Result<Page<WalletOperationRecord, WalletOperationKind>, StoreError>;
    /// The steps of the given flight operations of the operator, each operation's in order.
    async fn wallet_operation_steps(
        &self,
        operator: OperatorId,
        operations: &[WalletOperationId],
    ) -> Result<Vec<(WalletOperationId, WalletOperationStep)>, StoreError>;
}
