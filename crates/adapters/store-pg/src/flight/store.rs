//! `FlightStore` for `PgStore`: each method is one query or one transaction, written in
//! the file of its concern.

use async_trait::async_trait;
use opinion_app::flight::model::{ChainRecord, Enablement, FlightRecord, TermsCancellation, TermsRecord, TicketRecord};
use opinion_app::flight::ports::{
    FeedCashOutRow, FeedTally, FlightChange, FlightStore, NewTicket, TicketFilter, TicketOpening,
};
use opinion_app::model::{NewEvent, WalletOperationRecord};
use opinion_app::ports::StoreError;
use opinion_core::{FlightChainId, FlightId, FlightTermsId, OperatorId, TicketId, UserId, WalletOperationId};
use opinion_flight::{Multiplier, ProductionAuthorization, Revocation, Seed, TicketStatus};
use opinion_wallet::Product;
use time::OffsetDateTime;

use crate::db::pool::PgStore;
use crate::flight::{chains, change, enablement, live_feed, money, production_authorizations, terms, tickets};
use crate::opinion::settlement::review::find_operation_by_id;

#[async_trait]
impl FlightStore for PgStore {
    async fn current_chain(&self) -> Result<Option<(ChainRecord, Option<u32>)>, StoreError> {
        chains::current_chain(self).await
    }

    #[tracing::instrument(skip_all, fields(flight_chain_id = %chain.id))]
    async fn create_chain(&self, chain: &ChainRecord, terminal: &Seed) -> Result<(), StoreError> {
        chains::create_chain(self, chain, terminal).await
    }

    #[tracing::instrument(skip_all, fields(flight_chain_id = %chain))]
    async fn terminal_seed(&self, chain: FlightChainId) -> Result<Seed, StoreError> {
        chains::terminal_seed(self, chain).await
    }

    async fn chains(&self, limit: u32) -> Result<Vec<ChainRecord>, StoreError> {
        chains::chains(self, limit).await
    }

    async fn latest_flight(&self) -> Result<Option<FlightRecord>, StoreError> {
        chains::latest_flight(self).await
    }

    async fn find_flight(&self, id: FlightId) -> Result<Option<FlightRecord>, StoreError> {
        chains::find_flight(self, id).await
    }

    async fn flights(
        &self,
        before: Option<(OffsetDateTime, FlightId)>,
        limit: u32,
    ) -> Result<Vec<FlightRecord>, StoreError> {
        chains::flights(self, before, limit).await
    }

    #[tracing::instrument(skip_all, fields(flight_id = %flight.id))]
    async fn open_flight(&self, flight: &FlightRecord) -> Result<bool, StoreError> {
        chains::open_flight(self, flight).await
    }

    async fn flight_tickets(
        &self,
        flight: FlightId,
        statuses: &[TicketStatus],
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError> {
        tickets::flight_tickets(self, flight, statuses, limit).await
    }

    async fn tickets_due(
        &self,
        flight: FlightId,
        reached: Multiplier,
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError> {
        tickets::tickets_due(self, flight, reached, limit).await
    }

    async fn live_feed(
        &self,
        flight: FlightId,
        since: OffsetDateTime,
        limit: u32,
    ) -> Result<(FeedTally, Vec<FeedCashOutRow>), StoreError> {
        live_feed::live_feed(self, flight, since, limit).await
    }

    #[tracing::instrument(skip_all)]
    async fn apply_flight_change(&self, change: &FlightChange) -> Result<bool, StoreError> {
        change::apply_flight_change(self, change).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %new.ticket.operator_id, ticket_id = %new.ticket.id))]
    async fn open_ticket(&self, new: &NewTicket) -> Result<TicketOpening, StoreError> {
        tickets::open_ticket(self, new).await
    }

    async fn find_client_ticket(
        &self,
        operator: OperatorId,
        user: UserId,
        client_ticket_id: &str,
    ) -> Result<Option<TicketRecord>, StoreError> {
        tickets::find_client_ticket(self, operator, user, client_ticket_id).await
    }

    async fn find_flight_operation(&self, id: WalletOperationId) -> Result<Option<WalletOperationRecord>, StoreError> {
        let found = find_operation_by_id(self, id).await?;
        Ok(found.filter(|operation| operation.flow.product() == Product::Flight))
    }

    async fn find_ticket(&self, operator: OperatorId, id: TicketId) -> Result<Option<TicketRecord>, StoreError> {
        tickets::find_ticket(self, operator, id).await
    }

    async fn tickets(
        &self,
        operator: OperatorId,
        filter: TicketFilter,
        before: Option<TicketId>,
        limit: u32,
    ) -> Result<Vec<TicketRecord>, StoreError> {
        tickets::tickets(self, operator, filter, before, limit).await
    }

    async fn operators_with_flight_wallet_work(
        &self,
        now: OffsetDateTime,
        lost_before: OffsetDateTime,
    ) -> Result<Vec<OperatorId>, StoreError> {
        money::operators_with_flight_wallet_work(self, now, lost_before).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn claim_due_flight_operations(
        &self,
        operator: OperatorId,
        now: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        money::claim_due_flight_operations(self, operator, now, limit).await
    }

    async fn stale_flight_operations(
        &self,
        operator: OperatorId,
        before: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        money::stale_flight_operations(self, operator, before, limit).await
    }

    async fn find_enablement(&self, operator: OperatorId) -> Result<Option<Enablement>, StoreError> {
        enablement::find_enablement(self, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %enablement.operator_id))]
    async fn save_enablement(&self, enablement: &Enablement) -> Result<(), StoreError> {
        enablement::save_enablement(self, enablement).await
    }

    async fn production_authorizations(
        &self,
        operator: OperatorId,
    ) -> Result<Vec<ProductionAuthorization>, StoreError> {
        production_authorizations::production_authorizations(self, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %authorization.operator_id))]
    async fn add_production_authorization(&self, authorization: &ProductionAuthorization) -> Result<(), StoreError> {
        production_authorizations::add_production_authorization(self, authorization).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn revoke_production_authorizations(
        &self,
        operator: OperatorId,
        revocation: &Revocation,
    ) -> Result<usize, StoreError> {
        production_authorizations::revoke_production_authorizations(self, operator, revocation).await
    }

    async fn terms_versions(&self, operator: OperatorId) -> Result<Vec<TermsRecord>, StoreError> {
        terms::terms_versions(self, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %terms.operator_id))]
    async fn add_terms(&self, terms: &TermsRecord) -> Result<(), StoreError> {
        terms::add_terms(self, terms).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %terms.operator_id))]
    async fn schedule_terms(&self, terms: &TermsRecord, event: &NewEvent) -> Result<(), StoreError> {
        terms::schedule_terms(self, terms, event).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn cancel_terms(
        &self,
        operator: OperatorId,
        id: FlightTermsId,
        cancellation: &TermsCancellation,
    ) -> Result<bool, StoreError> {
        terms::cancel_terms(self, operator, id, cancellation).await
    }
}
