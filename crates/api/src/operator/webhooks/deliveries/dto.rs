//! Webhook deliveries and their attempts on the wire, and the delivery log's query.

use opinion_app::model::{AttemptRecord, DeliveryRecord};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

/// One delivery (an event to an endpoint) and every attempt at it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDeliveryBody {
    /// `whd_…`
    pub id: String,
    /// `whe_…`
    pub endpoint_id: String,
    /// `evt_…`, also the `webhook-id` header and the envelope's `id`.
    pub event_id: String,
    /// The event's type.
    pub event_type: String,
    /// `pending`, `delivered`, `dead_letter` (every scheduled attempt failed; only a
    /// replay sends it again), `failed` or `cancelled`.
    pub status: String,
    /// When the next scheduled attempt is due, while pending.
    #[serde(with = "time::serde::rfc3339::option")]
    pub next_attempt_at: Option<OffsetDateTime>,
    /// Creation time (the event's).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Last status change.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// Every attempt, oldest first.
    pub attempts: Vec<WebhookAttemptBody>,
}

impl From<DeliveryRecord> for WebhookDeliveryBody {
    fn from(delivery: DeliveryRecord) -> Self {
        Self {
            id: delivery.id.to_string(),
            endpoint_id: delivery.endpoint_id.to_string(),
            event_id: delivery.event_id.to_string(),
            event_type: delivery.event_type.as_str().to_owned(),
            status: delivery.status.as_str().to_owned(),
            next_attempt_at: delivery.next_attempt_at,
            created_at: delivery.created_at,
            updated_at: delivery.updated_at,
            attempts: delivery.attempts.into_iter().map(WebhookAttemptBody::from).collect(),
        }
    }
}

/// One attempt at a delivery.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookAttemptBody {
    /// 1 for the first attempt; replays are numbered on.
    pub number: u32,
    /// `scheduled` or `manual` (a replay).
    pub trigger: String,
    /// When it started.
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    /// How long it took.
    pub duration_ms: u32,
    /// The receiver's status, when it answered.
    pub status_code: Option<u16>,
    /// Why it failed, when it did.
    pub error: Option<String>,
    /// The first 4 KiB of the receiver's answer.
    pub response_body: Option<String>,
    /// The next attempt this one scheduled, if any.
    #[serde(with = "time::serde::rfc3339::option")]
    pub next_attempt_at: Option<OffsetDateTime>,
}

impl From<AttemptRecord> for WebhookAttemptBody {
    fn from(attempt: AttemptRecord) -> Self {
        Self {
            number: attempt.number,
            trigger: attempt.trigger.as_str().to_owned(),
            started_at: attempt.started_at,
            duration_ms: attempt.duration_ms,
            status_code: attempt.status_code,
            error: attempt.error,
            response_body: attempt.response_body,
            next_attempt_at: attempt.next_attempt_at,
        }
    }
}

/// The delivery log's filters and page; every given filter applies.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DeliveryQuery {
    /// Only this endpoint's deliveries (`whe_…`).
    pub endpoint_id: Option<String>,
    /// Only this event type's.
    pub event_type: Option<String>,
    /// Only deliveries in this status (`dead_letter` lists those whose attempts ran out).
    pub status: Option<String>,
    /// Created at or after this time (RFC 3339).
    pub created_from: Option<String>,
    /// Created before this time (RFC 3339).
    pub created_before: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
