//! A webhook event as a use case records it: written to the outbox in the same
//! transaction as the business change that caused it (DESIGN.md §6).

use opinion_core::{EventId, OperatorId};
use opinion_webhook::EventType;
use serde_json::{Map, Value};
use time::OffsetDateTime;

/// An event to be written to the outbox with its business change.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    /// The event's id, stable across endpoints and retries (`webhook-id`).
    pub id: EventId,
    /// The operator whose endpoints may receive it.
    pub operator_id: OperatorId,
    /// What happened.
    pub event_type: EventType,
    /// The type's camelCase fields, as documented in the event catalog.
    pub data: Map<String, Value>,
    /// When it happened (UTC).
    pub created_at: OffsetDateTime,
}
