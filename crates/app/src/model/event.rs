//! A webhook event as a use case records it: written to the outbox in the same
//! transaction as the business change that caused it (DESIGN.md §6).

use opinion_core::{EventId, OperatorId};
use opinion_webhook::EventType;
use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

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

impl NewEvent {
    /// An event of `operator` with the given id; `data` is the event's JSON object (any
    /// other JSON value makes an empty one).
    pub fn new(id: EventId, operator_id: OperatorId, event_type: EventType, data: Value, at: OffsetDateTime) -> Self {
        let data = match data {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        Self {
            id,
            operator_id,
            event_type,
            data,
            created_at: at,
        }
    }
}

/// RFC 3339 text of a UTC time, as event data writes times.
pub fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_else(|_| at.unix_timestamp().to_string())
}
