//! API keys on the wire.

use std::net::IpAddr;

use opinion_app::access::CreatedApiKey;
use opinion_app::model::ApiKeyRecord;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// An API key, never with its secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyBody {
    /// `key_…`
    pub id: String,
    /// What workload uses it.
    pub name: String,
    /// Its scopes, or `["*"]`.
    pub scopes: Vec<String>,
    /// The environment it works in, as its secret's prefix says: `live` (production),
    /// `test` (staging) or `dev` (development). Any other environment refuses it.
    #[schema(example = "live")]
    pub environment: &'static str,
    /// The beginning of the secret, to tell keys apart.
    pub hint: String,
    /// Creation time (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Expiry time, if any.
    #[serde(with = "time::serde::rfc3339::option")]
    pub expires_at: Option<OffsetDateTime>,
    /// Revocation time, if revoked.
    #[serde(with = "time::serde::rfc3339::option")]
    pub revoked_at: Option<OffsetDateTime>,
    /// Last use, to the minute: a use is recorded only when the recorded one is a
    /// minute old or more.
    #[serde(with = "time::serde::rfc3339::option")]
    pub last_used_at: Option<OffsetDateTime>,
    /// The client address of the recorded last use: the connection's peer, or the address
    /// a proxy the service trusts forwarded.
    #[schema(value_type = Option<String>, example = "203.0.113.7")]
    pub last_used_ip: Option<IpAddr>,
    /// The `User-Agent` of the recorded last use, at most 256 characters.
    pub last_used_user_agent: Option<String>,
}

impl From<ApiKeyRecord> for ApiKeyBody {
    fn from(record: ApiKeyRecord) -> Self {
        Self {
            id: record.id.to_string(),
            name: record.name,
            scopes: record.grant.to_strings(),
            environment: record.environment.tag(),
            hint: record.hint,
            created_at: record.created_at,
            expires_at: record.expires_at,
            revoked_at: record.revoked_at,
            last_used_at: record.last_used_at,
            last_used_ip: record.last_used_ip,
            last_used_user_agent: record.last_used_user_agent.map(|agent| agent.into_string()),
        }
    }
}

/// A new key's request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateApiKeyBody {
    /// What workload will use it (1 to 200 characters).
    pub name: String,
    /// Scopes from the contract's list, or `["*"]`; never staff scopes. No more than the caller holds.
    pub scopes: Vec<String>,
    /// Optional expiry (RFC 3339, in the future).
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub expires_at: Option<OffsetDateTime>,
}

/// A created key with its secret, shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKeyBody {
    /// The key's record.
    #[serde(flatten)]
    pub key: ApiKeyBody,
    /// The secret to send as `Authorization: Bearer …`. It cannot be shown again.
    pub secret: String,
}

impl From<CreatedApiKey> for CreatedApiKeyBody {
    fn from(created: CreatedApiKey) -> Self {
        Self {
            secret: created.secret.expose().to_owned(),
            key: created.record.into(),
        }
    }
}
