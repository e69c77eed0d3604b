//! Deliveries (one event to one endpoint) and their attempts, as the delivery log and the
//! workers see them.

use opinion_core::{EventId, OperatorId, WebhookDeliveryId, WebhookEndpointId};
use opinion_webhook::{AttemptTimeout, AttemptTrigger, DeliveryStatus, EventType, MaxAttempts, SignatureHeaders};
use serde_json::{Map, Value};
use time::OffsetDateTime;

use super::{EndpointSecrets, NewEvent};

/// A delivery and every attempt made at it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryRecord {
    pub id: WebhookDeliveryId,
    /// The operator it belongs to.
    pub operator_id: OperatorId,
    /// Where it goes.
    pub endpoint_id: WebhookEndpointId,
    /// What it carries.
    pub event_id: EventId,
    /// The event's type.
    pub event_type: EventType,
    /// Where it stands.
    pub status: DeliveryStatus,
    /// When the next scheduled attempt is due, while pending.
    pub next_attempt_at: Option<OffsetDateTime>,
    /// When it was created (the event's time).
    pub created_at: OffsetDateTime,
    /// When its status last changed.
    pub updated_at: OffsetDateTime,
    /// Its attempts, oldest first.
    pub attempts: Vec<AttemptRecord>,
}

/// One attempt at a delivery, as logged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptRecord {
    /// 1 for the first attempt, counting replays too.
    pub number: u32,
    /// Schedule or replay.
    pub trigger: AttemptTrigger,
    /// When it started.
    pub started_at: OffsetDateTime,
    /// How long it took, in milliseconds.
    pub duration_ms: u32,
    /// What it sent, when it sent something (an envelope over the size limit is not
    /// sent; attempts logged before requests were kept have none either).
    pub request: Option<AttemptRequest>,
    /// The receiver's HTTP status, when it answered.
    pub status_code: Option<u16>,
    /// What went wrong without an answer (timeout, connection, refused address), or why a
    /// status counts as a failure.
    pub error: Option<String>,
    /// The start of the receiver's answer, truncated.
    pub response_body: Option<String>,
    /// When the next attempt was scheduled by this one, if one was.
    pub next_attempt_at: Option<OffsetDateTime>,
}

/// What one attempt sent: the address and the signed headers. The body is the delivery's
/// event envelope, the same bytes at every attempt, kept once with the event. The signature is an HMAC output: the secret is never kept
/// with an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptRequest {
    /// The endpoint's URL at the time of the attempt.
    pub url: String,
    /// `webhook-id`, `webhook-timestamp` and `webhook-signature` as sent.
    pub headers: SignatureHeaders,
}

/// A delivery with the exact body each of its attempts sends (its event's envelope).
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryDetail {
    /// The delivery and its attempts.
    pub delivery: DeliveryRecord,
    /// The JSON body of every attempt.
    pub body: String,
}

/// What the delivery log can be filtered by; all given filters apply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryFilter {
    /// One endpoint's deliveries.
    pub endpoint_id: Option<WebhookEndpointId>,
    /// One event type's deliveries.
    pub event_type: Option<EventType>,
    /// Only deliveries of one of these event types (none when the list is empty): a
    /// product's evidence, such as the flight product's `mini_app.flight.*` events.
    pub event_types: Option<Vec<EventType>>,
    /// Deliveries in this status.
    pub status: Option<DeliveryStatus>,
    /// Created at or after this time.
    pub created_from: Option<OffsetDateTime>,
    /// Created before this time.
    pub created_before: Option<OffsetDateTime>,
}

/// An event as read back from the outbox.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    /// Its id (`webhook-id`).
    pub id: EventId,
    /// What happened.
    pub event_type: EventType,
    /// When.
    pub created_at: OffsetDateTime,
    /// The type's fields.
    pub data: Map<String, Value>,
}

/// Everything one attempt at a delivery needs, as claimed by a worker or loaded for a replay.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptTarget {
    pub delivery_id: WebhookDeliveryId,
    pub operator_id: OperatorId,
    pub endpoint_id: WebhookEndpointId,
    /// The endpoint's URL now.
    pub url: String,
    /// The endpoint's secrets now.
    pub secrets: EndpointSecrets,
    /// The endpoint's failure streak now.
    pub failing_since: Option<OffsetDateTime>,
    /// The endpoint's number of scheduled attempts now.
    pub max_attempts: MaxAttempts,
    /// The endpoint's time limit of one attempt now.
    pub timeout: AttemptTimeout,
    /// The event to send.
    pub event: StoredEvent,
    /// Scheduled attempts made so far.
    pub scheduled_attempts: u32,
}

/// The store's record of one finished attempt and what follows from it, written in one
/// transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptReport {
    /// The attempt's target (its delivery, endpoint and operator).
    pub operator_id: OperatorId,
    pub delivery_id: WebhookDeliveryId,
    pub endpoint_id: WebhookEndpointId,
    /// The worker's claim, for a scheduled attempt: the delivery's state is changed only
    /// while the claim still holds.
    pub lease: Option<u128>,
    /// The attempt as logged (its `number` is assigned by the store).
    pub attempt: AttemptRecord,
    /// The delivery's new status and next attempt, unless it stays as it is.
    pub delivery: Option<(DeliveryStatus, Option<OffsetDateTime>)>,
    /// The endpoint's failure streak after the attempt.
    pub failing_since: Option<OffsetDateTime>,
    /// Disable the endpoint (cancelling its other pending deliveries) and emit this event.
    pub disable: Option<EndpointDisabling>,
}

/// An endpoint being disabled by the service, and the event that says so.
#[derive(Debug, Clone, PartialEq)]
pub struct EndpointDisabling {
    /// Why.
    pub reason: opinion_webhook::DisableReason,
    /// When.
    pub at: OffsetDateTime,
    /// `mini_app.webhook_endpoint.disabled`.
    pub event: NewEvent,
}
