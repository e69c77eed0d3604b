//! Persistence of webhook endpoints, deliveries and attempts. Events reach the outbox
//! through the store of the business change that caused them; this port is what the
//! webhook use cases and the delivery workers need on top.

use async_trait::async_trait;
use opinion_core::{EventId, OperatorId, Page, PageRequest, WebhookDeliveryId, WebhookDeliveryKind};
use opinion_core::{WebhookEndpointId, WebhookEndpointKind};
use time::OffsetDateTime;

use crate::model::{
    AttemptReport, AttemptTarget, DeliveryFilter, DeliveryRecord, EndpointUpdate, StoredEvent, WebhookEndpoint,
};
use crate::ports::StoreError;

/// A worker's request for due deliveries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    /// Deliveries due at or before this time.
    pub now: OffsetDateTime,
    /// The claimed deliveries belong to this worker until then.
    pub lease_until: OffsetDateTime,
    /// The claim's token; only its holder changes the deliveries' state.
    pub token: u128,
    /// At most this many.
    pub limit: u32,
}

/// What a replay needs beyond the attempt itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayTarget {
    /// The attempt's target.
    pub target: AttemptTarget,
    /// Whether the endpoint still receives deliveries (enabled and not deleted).
    pub endpoint_active: bool,
    /// The endpoint's rate limit, if any.
    pub rate_limit: Option<opinion_webhook::RateLimit>,
}

/// Webhook endpoints, deliveries and attempts.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WebhookStore: Send + Sync {
    /// Stores a new endpoint.
    async fn insert_endpoint(&self, endpoint: &WebhookEndpoint) -> Result<(), StoreError>;
    /// Reads an endpoint of this operator (never a deleted one).
    async fn find_endpoint(
        &self,
        operator: OperatorId,
        id: WebhookEndpointId,
    ) -> Result<Option<WebhookEndpoint>, StoreError>;
    /// One page of the operator's endpoints, newest first.
    async fn list_endpoints(
        &self,
        operator: OperatorId,
        page: PageRequest<WebhookEndpointKind>,
    ) -> Result<Page<WebhookEndpoint, WebhookEndpointKind>, StoreError>;
    /// Applies a change if the endpoint is unchanged since it was read; `false` if it
    /// changed meanwhile or no longer exists. Its events are enqueued in the same transaction.
    async fn update_endpoint(&self, update: &EndpointUpdate) -> Result<bool, StoreError>;
    /// Deletes an endpoint (it disappears from the API; its delivery log stays) and cancels
    /// its pending deliveries; `false` if there is no such endpoint.
    async fn delete_endpoint(
        &self,
        operator: OperatorId,
        id: WebhookEndpointId,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError>;
    /// One page of the operator's deliveries matching `filter`, newest first, with their attempts.
    async fn list_deliveries(
        &self,
        operator: OperatorId,
        filter: &DeliveryFilter,
        page: PageRequest<WebhookDeliveryKind>,
    ) -> Result<Page<DeliveryRecord, WebhookDeliveryKind>, StoreError>;
    /// One delivery of the operator with its attempts.
    async fn find_delivery(
        &self,
        operator: OperatorId,
        id: WebhookDeliveryId,
    ) -> Result<Option<DeliveryRecord>, StoreError>;
    /// The event of the operator's outbox with this id (what a delivery carries).
    async fn find_event(&self, operator: OperatorId, id: EventId) -> Result<Option<StoredEvent>, StoreError>;
    /// Claims up to `limit` pending deliveries due at `now` whose endpoints are enabled,
    /// skipping those another worker holds (`FOR UPDATE SKIP LOCKED`, then a lease), at most
    /// a few in flight per endpoint, and reserving each rate-limited endpoint's next slot.
    async fn claim_due_deliveries(&self, claim: &Claim) -> Result<Vec<AttemptTarget>, StoreError>;
    /// Loads what a replay of this delivery needs.
    async fn find_replay_target(
        &self,
        operator: OperatorId,
        id: WebhookDeliveryId,
    ) -> Result<Option<ReplayTarget>, StoreError>;
    /// Reserves the endpoint's next send slot at `now`, `spacing_micros` wide; `None` when
    /// reserved, else when the next slot opens.
    async fn reserve_send_slot(
        &self,
        operator: OperatorId,
        endpoint: WebhookEndpointId,
        now: OffsetDateTime,
        spacing_micros: i64,
    ) -> Result<Option<OffsetDateTime>, StoreError>;
    /// Records a finished attempt and its consequences, in one transaction.
    async fn record_attempt(&self, report: &AttemptReport) -> Result<(), StoreError>;
}
