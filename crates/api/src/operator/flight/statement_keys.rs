//! `GET /.well-known/opinion-statement-keys.json`, unauthenticated: the public halves of
//! the platform's statement keys, current and retired, so anyone holding a statement can
//! verify its signature (a retired key verifies what was issued before `retiredAt`).

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::flight::office::model::StatementKeyRecord;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::http::error::ApiError;
use crate::state::ApiState;

/// One statement key.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatementKeyBody {
    /// `ed25519:` and the first 16 hex digits of SHA-256 of the public key; statements
    /// name their key by it.
    #[schema(example = "ed25519:3f0c6a1b2d4e5f60")]
    pub key_id: String,
    /// Always `Ed25519`.
    pub algorithm: &'static str,
    /// The 32-byte public key, 64 lowercase hex digits.
    pub public_key: String,
    /// When it became current (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was retired (UTC); null while current. It verifies only documents issued
    /// before this instant.
    #[serde(with = "time::serde::rfc3339::option")]
    pub retired_at: Option<OffsetDateTime>,
}

impl From<&StatementKeyRecord> for StatementKeyBody {
    fn from(record: &StatementKeyRecord) -> Self {
        Self {
            key_id: record.key_id.to_string(),
            algorithm: "Ed25519",
            public_key: record.public_key.to_hex(),
            created_at: record.created_at,
            retired_at: record.retired_at,
        }
    }
}

/// Every statement key, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatementKeysBody {
    /// The keys, oldest first; the one whose `retiredAt` is null is current.
    pub keys: Vec<StatementKeyBody>,
}

/// The platform's statement keys, current and retired (no credential needed).
#[utoipa::path(
    get,
    path = RouteId::StatementKeys.spec().path,
    responses((status = 200, description = "every statement key, oldest first", body = StatementKeysBody)),
)]
pub async fn list(state: web::Data<ApiState>) -> Result<HttpResponse, ApiError> {
    let keys = state.office.statement_keys().await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=300"))
        .json(StatementKeysBody {
            keys: keys.iter().map(StatementKeyBody::from).collect(),
        }))
}
