//! Webhook endpoints on the wire.

use opinion_app::model::WebhookEndpoint;
use opinion_app::webhooks::EndpointWithSecret;
use serde::{Deserialize, Deserializer, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// A webhook endpoint, never with its secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpointBody {
    /// `whe_…`
    pub id: String,
    /// Where deliveries are POSTed.
    pub url: String,
    /// What it is for.
    pub description: Option<String>,
    /// The event types it receives.
    pub event_types: Vec<String>,
    /// Whether deliveries are made to it.
    pub enabled: bool,
    /// Why it is disabled: `failing`, `gone` or `operator`.
    pub disabled_reason: Option<String>,
    /// At most this many attempts a minute, if limited.
    pub rate_limit_per_minute: Option<u32>,
    /// Scheduled attempts a delivery gets before it becomes a `dead_letter`.
    pub max_attempts: u32,
    /// How long one attempt may take, in seconds.
    pub timeout_seconds: u32,
    /// Since when it has been failing without a success, if it is.
    #[serde(with = "time::serde::rfc3339::option")]
    pub failing_since: Option<OffsetDateTime>,
    /// Until when the previous secret also signs, during a rotation overlap.
    #[serde(with = "time::serde::rfc3339::option")]
    pub previous_secret_expires_at: Option<OffsetDateTime>,
    /// Creation time (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Last change (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<WebhookEndpoint> for WebhookEndpointBody {
    fn from(endpoint: WebhookEndpoint) -> Self {
        Self {
            id: endpoint.id.to_string(),
            url: endpoint.url,
            description: endpoint.description,
            event_types: endpoint.subscription.types().map(|t| t.as_str().to_owned()).collect(),
            enabled: endpoint.enabled,
            disabled_reason: endpoint.disabled_reason.map(|r| r.as_str().to_owned()),
            rate_limit_per_minute: endpoint.rate_limit.map(|limit| limit.get()),
            max_attempts: endpoint.max_attempts.get(),
            timeout_seconds: endpoint.timeout.secs(),
            failing_since: endpoint.failing_since,
            previous_secret_expires_at: endpoint.secrets.previous_expires_at,
            created_at: endpoint.created_at,
            updated_at: endpoint.updated_at,
        }
    }
}

/// An endpoint with the secret just issued (at creation or rotation), shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpointWithSecretBody {
    /// The endpoint.
    #[serde(flatten)]
    pub endpoint: WebhookEndpointBody,
    /// `whsec_…`: verify deliveries with it. Present only in the answer that generated it
    /// (never when the operator supplied its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

impl From<EndpointWithSecret> for WebhookEndpointWithSecretBody {
    fn from(created: EndpointWithSecret) -> Self {
        Self {
            secret: created.secret.map(|secret| secret.reveal()),
            endpoint: created.endpoint.into(),
        }
    }
}

/// A new endpoint's request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateWebhookEndpointBody {
    /// `https` URL (`http` outside production) of at most 2048 bytes.
    pub url: String,
    /// Event types to receive: an explicit, non-empty list without repeats.
    pub event_types: Vec<String>,
    /// Whether to deliver at once (default true).
    #[serde(default)]
    pub enabled: Option<bool>,
    /// What it is for (1 to 500 characters).
    #[serde(default)]
    pub description: Option<String>,
    /// At most this many attempts a minute (1 to 60000); unlimited when absent.
    #[serde(default)]
    pub rate_limit_per_minute: Option<u32>,
    /// Scheduled attempts per delivery before it becomes a `dead_letter` (1 to 20, default 12).
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 20)]
    pub max_attempts: Option<i64>,
    /// One attempt's time limit in seconds (1 to 30, default 15).
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 30)]
    pub timeout_seconds: Option<i64>,
    /// Your own signing secret instead of a generated one: `whsec_` and the standard
    /// base64 of 24 to 64 random bytes. Never sent back.
    #[serde(default)]
    pub secret: Option<String>,
}

/// A change to an endpoint; absent fields stay as they are, `null` clears a clearable one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateWebhookEndpointBody {
    /// New URL.
    #[serde(default)]
    pub url: Option<String>,
    /// New event type list (replaces the old one).
    #[serde(default)]
    pub event_types: Option<Vec<String>>,
    /// Disable (pending deliveries are cancelled) or re-enable.
    #[serde(default)]
    pub enabled: Option<bool>,
    /// New description, or `null` to remove it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    /// New rate limit, or `null` to remove it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>)]
    pub rate_limit_per_minute: Option<Option<u32>>,
    /// New number of scheduled attempts per delivery (1 to 20); it cannot be cleared, so
    /// `null` is refused.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = u32, required = false, minimum = 1, maximum = 20)]
    pub max_attempts: Option<Option<i64>>,
    /// New time limit of one attempt in seconds (1 to 30); it cannot be cleared, so `null`
    /// is refused.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = u32, required = false, minimum = 1, maximum = 30)]
    pub timeout_seconds: Option<Option<i64>>,
    /// `true` issues a new secret (in this answer only); the old one also signs for 24 hours.
    #[serde(default)]
    pub rotate_secret: bool,
    /// Rotates to your own signing secret (`whsec_…`, 24 to 64 bytes, not the current
    /// one); the old one also signs for 24 hours. Never sent back.
    #[serde(default)]
    pub secret: Option<String>,
}

/// A field that is present: `null` becomes `Some(None)`, absence (via `default`) `None`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(Some)
}
