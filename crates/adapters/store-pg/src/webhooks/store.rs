//! `WebhookStore` for `PgStore`: each method is one transaction or one query, written in
//! the file of its concern in this folder (`endpoints.rs`, `deliveries.rs`, `claims.rs`,
//! `attempts.rs`).

use async_trait::async_trait;
use opinion_app::model::{
    AttemptReport, AttemptTarget, DeliveryFilter, DeliveryRecord, EndpointUpdate, StoredEvent, WebhookEndpoint,
};
use opinion_app::ports::StoreError;
use opinion_app::webhooks::store::{Claim, ReplayTarget, WebhookStore};
use opinion_core::{EventId, OperatorId, Page, PageRequest, WebhookDeliveryId, WebhookDeliveryKind};
use opinion_core::{WebhookEndpointId, WebhookEndpointKind};
use time::OffsetDateTime;

use crate::db::pool::PgStore;

#[async_trait]
impl WebhookStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %endpoint.operator_id, webhook_endpoint_id = %endpoint.id))]
    async fn insert_endpoint(&self, endpoint: &WebhookEndpoint) -> Result<(), StoreError> {
        self.insert_endpoint_row(endpoint).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, webhook_endpoint_id = %id))]
    async fn find_endpoint(
        &self,
        operator: OperatorId,
        id: WebhookEndpointId,
    ) -> Result<Option<WebhookEndpoint>, StoreError> {
        self.find_endpoint_row(operator, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_endpoints(
        &self,
        operator: OperatorId,
        page: PageRequest<WebhookEndpointKind>,
    ) -> Result<Page<WebhookEndpoint, WebhookEndpointKind>, StoreError> {
        self.list_endpoint_rows(operator, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %update.endpoint.operator_id, webhook_endpoint_id = %update.endpoint.id))]
    async fn update_endpoint(&self, update: &EndpointUpdate) -> Result<bool, StoreError> {
        self.update_endpoint_row(update).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, webhook_endpoint_id = %id))]
    async fn delete_endpoint(
        &self,
        operator: OperatorId,
        id: WebhookEndpointId,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        self.delete_endpoint_row(operator, id, at).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_deliveries(
        &self,
        operator: OperatorId,
        filter: &DeliveryFilter,
        page: PageRequest<WebhookDeliveryKind>,
    ) -> Result<Page<DeliveryRecord, WebhookDeliveryKind>, StoreError> {
        self.list_delivery_rows(operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, webhook_delivery_id = %id))]
    async fn find_delivery(
        &self,
        operator: OperatorId,
        id: WebhookDeliveryId,
    ) -> Result<Option<DeliveryRecord>, StoreError> {
        self.find_delivery_row(operator, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, event_id = %id))]
    async fn find_event(&self, operator: OperatorId, id: EventId) -> Result<Option<StoredEvent>, StoreError> {
        self.find_event_row(operator, id).await
    }

    #[tracing::instrument(skip_all, fields(limit = claim.limit))]
    async fn claim_due_deliveries(&self, claim: &Claim) -> Result<Vec<AttemptTarget>, StoreError> {
        self.claim_due(claim).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, webhook_delivery_id = %id))]
    async fn find_replay_target(
        &self,
        operator: OperatorId,
        id: WebhookDeliveryId,
    ) -> Result<Option<ReplayTarget>, StoreError> {
        self.replay_target(operator, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, webhook_endpoint_id = %endpoint))]
    async fn reserve_send_slot(
        &self,
        operator: OperatorId,
        endpoint: WebhookEndpointId,
        now: OffsetDateTime,
        spacing_micros: i64,
    ) -> Result<Option<OffsetDateTime>, StoreError> {
        self.reserve_slot(operator, endpoint, now, spacing_micros).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %report.operator_id, webhook_delivery_id = %report.delivery_id))]
    async fn record_attempt(&self, report: &AttemptReport) -> Result<(), StoreError> {
        self.record_attempt_rows(report).await
    }
}
