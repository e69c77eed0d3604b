//! `FlightReadStore` for `PgStore`: each method is one query, written in the file of its
//! resource in this folder, or the flight store's own find of the same row.

use async_trait::async_trait;
use opinion_app::flight::model::{Enablement, FlightRecord, TermsRecord, TicketRecord};
use opinion_app::flight::reads::ports::{
    ChainSummary, FlightFilter, FlightOperationFilter, FlightReadStore, TicketFilter, TicketTotals,
};
use opinion_app::model::{WalletOperationRecord, WalletOperationStep};
use opinion_app::ports::StoreError;
use opinion_core::{
    FlightChainId, FlightChainKind, FlightId, FlightKind, OperatorId, Page, PageRequest, TicketId, TicketKind,
    WalletOperationId, WalletOperationKind,
};
use opinion_flight::ProductionAuthorization;

use crate::db::pool::PgStore;
use crate::flight::reads::{chains as flight_chains, flights, tickets, totals, wallet_operations};
use crate::flight::{chains, enablement, production_authorizations, terms, tickets as flight_tickets};
use crate::opinion::reads::wallet_operations::steps;

#[async_trait]
impl FlightReadStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn enablement(&self, operator: OperatorId) -> Result<Option<Enablement>, StoreError> {
        enablement::find_enablement(self, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn terms_versions(&self, operator: OperatorId) -> Result<Vec<TermsRecord>, StoreError> {
        terms::terms_versions(self, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn production_authorizations(
        &self,
        operator: OperatorId,
    ) -> Result<Vec<ProductionAuthorization>, StoreError> {
        production_authorizations::production_authorizations(self, operator).await
    }

    #[tracing::instrument(skip_all)]
    async fn latest_flight(&self) -> Result<Option<FlightRecord>, StoreError> {
        chains::latest_flight(self).await
    }

    #[tracing::instrument(skip_all)]
    async fn list_flights(
        &self,
        filter: &FlightFilter,
        page: PageRequest<FlightKind>,
    ) -> Result<Page<FlightRecord, FlightKind>, StoreError> {
        flights::list(&mut *self.conn().await?, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(flight_id = %id))]
    async fn find_flight(&self, id: FlightId) -> Result<Option<FlightRecord>, StoreError> {
        chains::find_flight(self, id).await
    }

    #[tracing::instrument(skip_all)]
    async fn list_chains(
        &self,
        page: PageRequest<FlightChainKind>,
    ) -> Result<Page<ChainSummary, FlightChainKind>, StoreError> {
        flight_chains::list(&mut *self.conn().await?, page).await
    }

    #[tracing::instrument(skip_all, fields(flight_chain_id = %id))]
    async fn find_chain(&self, id: FlightChainId) -> Result<Option<ChainSummary>, StoreError> {
        flight_chains::find(&mut *self.conn().await?, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_tickets(
        &self,
        operator: OperatorId,
        filter: &TicketFilter,
        page: PageRequest<TicketKind>,
    ) -> Result<Page<TicketRecord, TicketKind>, StoreError> {
        tickets::list(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, ticket_id = %id))]
    async fn find_ticket(&self, operator: OperatorId, id: TicketId) -> Result<Option<TicketRecord>, StoreError> {
        flight_tickets::find_ticket(self, operator, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn ticket_totals(&self, operator: OperatorId, filter: &TicketFilter) -> Result<TicketTotals, StoreError> {
        totals::of(&mut *self.conn().await?, operator, filter).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_wallet_operations(
        &self,
        operator: OperatorId,
        filter: &FlightOperationFilter,
        page: PageRequest<WalletOperationKind>,
    ) -> Result<Page<WalletOperationRecord, WalletOperationKind>, StoreError> {
        wallet_operations::list(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, operations = operations.len()))]
    async fn wallet_operation_steps(
        &self,
        operator: OperatorId,
        operations: &[WalletOperationId],
    ) -> Result<Vec<(WalletOperationId, WalletOperationStep)>, StoreError> {
        steps(&mut *self.conn().await?, operator, operations).await
    }
}
