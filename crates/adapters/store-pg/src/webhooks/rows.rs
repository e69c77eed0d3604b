//! Webhook rows as diesel reads and writes them, and their conversions to the app's
//! records. A stored value the domain refuses is a corrupt row, not a panic. Endpoint
//! signing secrets are sealed under the data key, bound to their operator, endpoint and
//! slot; a row written before sealing may still hold them in clear until the service
//! seals it (`db::resealing`), and reads either form.

use diesel::prelude::*;
use diesel::sql_types::{Int4, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use opinion_app::model::{
    AttemptRecord, AttemptRequest, AttemptTarget, DeliveryRecord, EndpointSecrets, StoredEvent, WebhookEndpoint,
};
use opinion_app::ports::StoreError;
use opinion_webhook::{
    AttemptTimeout, EventType, MaxAttempts, RateLimit, SignatureHeaders, SigningSecret, Subscription,
};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, parsed, unavailable};
use crate::db::ids::{id_of, uuid_of};
use crate::db::schema::{webhook_attempts, webhook_deliveries, webhook_endpoints, webhook_events};
use crate::db::sealed_places::webhook_endpoint_secret;
use crate::db::sealing::DataKey;

const ENDPOINTS: &str = "webhook_endpoints";

/// A `webhook_endpoints` row, read and written whole except the worker-owned columns
/// (`failing_since`, `next_send_at`) and `deleted_at`, which have their own writes.
#[derive(Debug, Queryable, QueryableByName, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = webhook_endpoints, primary_key(operator_id, id))]
#[diesel(check_for_backend(diesel::pg::Pg), treat_none_as_null = true)]
pub(crate) struct EndpointRow {
    pub(crate) operator_id: Uuid,
    pub(crate) id: Uuid,
    url: String,
    description: Option<String>,
    event_types: Vec<String>,
    enabled: bool,
    disabled_reason: Option<String>,
    rate_limit_per_minute: Option<i32>,
    secret: Option<String>,
    previous_secret: Option<String>,
    previous_secret_expires_at: Option<OffsetDateTime>,
    secret_sealed: Option<String>,
    previous_secret_sealed: Option<String>,
    #[diesel(skip_update)]
    failing_since: Option<OffsetDateTime>,
    #[diesel(skip_update)]
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    max_attempts: i32,
    timeout_seconds: i32,
}

impl EndpointRow {
    /// The row that stores `endpoint`, its secrets sealed with `key` (a clear value an
    /// earlier write left is replaced).
    pub(crate) fn sealed(endpoint: &WebhookEndpoint, key: &DataKey) -> Result<Self, StoreError> {
        let (operator, id) = (uuid_of(endpoint.operator_id), uuid_of(endpoint.id));
        let seal = |secret: &SigningSecret, slot: &str| {
            key.seal(secret.reveal().as_bytes(), &webhook_endpoint_secret(operator, id, slot))
                .map_err(|error| unavailable("cannot seal a webhook signing secret", &error))
        };
        Ok(Self {
            operator_id: operator,
            id,
            url: endpoint.url.clone(),
            description: endpoint.description.clone(),
            event_types: endpoint.subscription.types().map(|t| t.as_str().to_owned()).collect(),
            enabled: endpoint.enabled,
            disabled_reason: endpoint.disabled_reason.map(|r| r.as_str().to_owned()),
            rate_limit_per_minute: endpoint
                .rate_limit
                .map(|limit| i32::try_from(limit.get()).unwrap_or(i32::MAX)),
            secret: None,
            previous_secret: None,
            previous_secret_expires_at: endpoint.secrets.previous_expires_at,
            secret_sealed: Some(seal(&endpoint.secrets.current, "current")?),
            previous_secret_sealed: endpoint
                .secrets
                .previous
                .as_ref()
                .map(|previous| seal(previous, "previous"))
                .transpose()?,
            failing_since: endpoint.failing_since,
            created_at: endpoint.created_at,
            updated_at: endpoint.updated_at,
            max_attempts: i32::try_from(endpoint.max_attempts.get()).unwrap_or(i32::MAX),
            timeout_seconds: i32::try_from(endpoint.timeout.secs()).unwrap_or(i32::MAX),
        })
    }

    /// The endpoint this row stores, its secrets opened with `key`.
    pub(crate) fn opened(self, key: &DataKey) -> Result<WebhookEndpoint, StoreError> {
        let table = ENDPOINTS;
        let id = self.id;
        let operator = self.operator_id;
        let types = self
            .event_types
            .iter()
            .map(|name| parsed::<EventType>(table, id, name))
            .collect::<Result<Vec<_>, _>>()?;
        let secret = |sealed: Option<&str>, clear: Option<&str>, slot: &str| match (sealed, clear) {
            (Some(sealed), _) => {
                let opened = key
                    .open(sealed, &webhook_endpoint_secret(operator, id, slot))
                    .map_err(|error| corrupt(table, id, &error))?;
                let text = String::from_utf8(opened).map_err(|error| corrupt(table, id, &error))?;
                parsed::<SigningSecret>(table, id, &text).map(Some)
            }
            (None, Some(clear)) => parsed::<SigningSecret>(table, id, clear).map(Some),
            (None, None) => Ok(None),
        };
        Ok(WebhookEndpoint {
            id: id_of(id),
            operator_id: id_of(self.operator_id),
            url: self.url,
            description: self.description,
            subscription: Subscription::new(types).map_err(|e| corrupt(table, id, &e))?,
            enabled: self.enabled,
            disabled_reason: self.disabled_reason.map(|r| parsed(table, id, &r)).transpose()?,
            rate_limit: self
                .rate_limit_per_minute
                .map(|n| {
                    u32::try_from(n)
                        .ok()
                        .and_then(|n| RateLimit::per_minute(n).ok())
                        .ok_or_else(|| corrupt(table, id, &"rate limit out of range"))
                })
                .transpose()?,
            max_attempts: u32::try_from(self.max_attempts)
                .ok()
                .and_then(|n| MaxAttempts::new(n).ok())
                .ok_or_else(|| corrupt(table, id, &"max attempts out of range"))?,
            timeout: u32::try_from(self.timeout_seconds)
                .ok()
                .and_then(|n| AttemptTimeout::from_secs(n).ok())
                .ok_or_else(|| corrupt(table, id, &"timeout out of range"))?,
            secrets: EndpointSecrets {
                current: secret(self.secret_sealed.as_deref(), self.secret.as_deref(), "current")?
                    .ok_or_else(|| corrupt(table, id, &"no signing secret"))?,
                previous: secret(
                    self.previous_secret_sealed.as_deref(),
                    self.previous_secret.as_deref(),
                    "previous",
                )?,
                previous_expires_at: self.previous_secret_expires_at,
            },
            failing_since: self.failing_since,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// A `webhook_deliveries` row as the log shows it.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = webhook_deliveries, check_for_backend(diesel::pg::Pg))]
pub(crate) struct DeliveryRow {
    pub(crate) operator_id: Uuid,
    pub(crate) id: Uuid,
    pub(crate) endpoint_id: Uuid,
    event_id: Uuid,
    event_type: String,
    status: String,
    next_attempt_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl DeliveryRow {
    /// The delivery this row stores, with `attempts`.
    pub(crate) fn into_record(self, attempts: Vec<AttemptRecord>) -> Result<DeliveryRecord, StoreError> {
        let table = "webhook_deliveries";
        Ok(DeliveryRecord {
            event_type: parsed(table, self.id, &self.event_type)?,
            status: parsed(table, self.id, &self.status)?,
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            endpoint_id: id_of(self.endpoint_id),
            event_id: id_of(self.event_id),
            next_attempt_at: self.next_attempt_at,
            created_at: self.created_at,
            updated_at: self.updated_at,
            attempts,
        })
    }
}

/// A `webhook_attempts` row as the delivery log reads it, for a caller that knows its
/// operator (the statement that records an attempt writes it: `attempts.rs`).
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = webhook_attempts, check_for_backend(diesel::pg::Pg))]
pub(crate) struct AttemptRow {
    pub(crate) delivery_id: Uuid,
    pub(crate) number: i32,
    trigger: String,
    started_at: OffsetDateTime,
    duration_ms: i32,
    status_code: Option<i32>,
    error: Option<String>,
    response_body: Option<String>,
    next_attempt_at: Option<OffsetDateTime>,
    request_url: Option<String>,
    request_webhook_id: Option<String>,
    request_webhook_timestamp: Option<String>,
    request_webhook_signature: Option<String>,
}

impl AttemptRow {
    /// The attempt this row stores.
    pub(crate) fn into_record(self) -> Result<AttemptRecord, StoreError> {
        let table = "webhook_attempts";
        Ok(AttemptRecord {
            number: u32::try_from(self.number).map_err(|e| corrupt(table, self.delivery_id, &e))?,
            trigger: parsed(table, self.delivery_id, &self.trigger)?,
            started_at: self.started_at,
            duration_ms: u32::try_from(self.duration_ms).map_err(|e| corrupt(table, self.delivery_id, &e))?,
            request: match (
                self.request_url,
                self.request_webhook_id,
                self.request_webhook_timestamp,
                self.request_webhook_signature,
            ) {
                (Some(url), Some(webhook_id), Some(webhook_timestamp), Some(webhook_signature)) => {
                    Some(AttemptRequest {
                        url,
                        headers: SignatureHeaders {
                            webhook_id,
                            webhook_timestamp,
                            webhook_signature,
                        },
                    })
                }
                (None, None, None, None) => None,
                _ => return Err(corrupt(table, self.delivery_id, &"a request is kept in part")),
            },
            status_code: self
                .status_code
                .map(|code| u16::try_from(code).map_err(|e| corrupt(table, self.delivery_id, &e)))
                .transpose()?,
            error: self.error,
            response_body: self.response_body,
            next_attempt_at: self.next_attempt_at,
        })
    }
}

/// A `webhook_events` row as delivery reads it.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = webhook_events, check_for_backend(diesel::pg::Pg))]
pub(crate) struct EventRow {
    id: Uuid,
    event_type: String,
    data: Value,
    created_at: OffsetDateTime,
}

impl EventRow {
    /// The event this row stores.
    pub(crate) fn into_record(self) -> Result<StoredEvent, StoreError> {
        let table = "webhook_events";
        let Value::Object(data) = self.data else {
            return Err(corrupt(table, self.id, &"data is not an object"));
        };
        Ok(StoredEvent {
            id: id_of(self.id),
            event_type: parsed(table, self.id, &self.event_type)?,
            created_at: self.created_at,
            data,
        })
    }
}

/// What an attempt needs of one delivery (`webhooks/targets.rs` reads it): the delivery's
/// id and scheduled attempts, its endpoint whole with when it was deleted, and its event.
/// The endpoint's columns keep their names; the delivery's and the event's are renamed
/// where they would collide with them.
#[derive(Debug, QueryableByName)]
pub(crate) struct TargetRow {
    #[diesel(embed)]
    endpoint: EndpointRow,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    deleted_at: Option<OffsetDateTime>,
    #[diesel(sql_type = SqlUuid)]
    delivery_id: Uuid,
    #[diesel(sql_type = Int4)]
    scheduled_attempts: i32,
    #[diesel(sql_type = SqlUuid)]
    event_id: Uuid,
    #[diesel(sql_type = Text)]
    event_type: String,
    #[diesel(sql_type = Jsonb)]
    event_data: Value,
    #[diesel(sql_type = Timestamptz)]
    event_created_at: OffsetDateTime,
}

impl TargetRow {
    /// The attempt's target, its endpoint's secrets opened with `key`; with whether the
    /// endpoint still receives deliveries, and its rate limit.
    pub(crate) fn into_target(self, key: &DataKey) -> Result<(AttemptTarget, bool, Option<RateLimit>), StoreError> {
        let active = self.endpoint.enabled && self.deleted_at.is_none();
        let event = EventRow {
            id: self.event_id,
            event_type: self.event_type,
            data: self.event_data,
            created_at: self.event_created_at,
        }
        .into_record()?;
        let endpoint = self.endpoint.opened(key)?;
        let rate_limit = endpoint.rate_limit;
        let target = AttemptTarget {
            delivery_id: id_of(self.delivery_id),
            operator_id: endpoint.operator_id,
            endpoint_id: endpoint.id,
            url: endpoint.url,
            secrets: endpoint.secrets,
            failing_since: endpoint.failing_since,
            max_attempts: endpoint.max_attempts,
            timeout: endpoint.timeout,
            event,
            scheduled_attempts: u32::try_from(self.scheduled_attempts).unwrap_or(0),
        };
        Ok((target, active, rate_limit))
    }
}
