//! The wallet adapter configuration on the wire. Its signing secret appears only in the
//! answer to the change that made it.

use opinion_app::wallet::{SavedWalletAdapter, WalletAdapterView};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// The operator's wallet adapter, never with a secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WalletAdapterBody {
    /// Where the platform calls (`{baseUrl}/v1/mutations`, `{baseUrl}/v1/balance`).
    pub base_url: String,
    /// How long one call may take, in milliseconds.
    pub timeout_ms: u32,
    /// The beginning of the current signing secret (`whsec_AbCd…`).
    pub secret_hint: String,
    /// While a replaced secret still signs (after a rotation), when it stops; else null.
    #[serde(with = "time::serde::rfc3339::option")]
    pub previous_secret_expires_at: Option<OffsetDateTime>,
    /// First configured (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Last changed (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<WalletAdapterView> for WalletAdapterBody {
    fn from(view: WalletAdapterView) -> Self {
        let config = view.config;
        Self {
            base_url: config.base_url.as_str().to_owned(),
            timeout_ms: config.timeout.as_millis(),
            secret_hint: config.secrets.hint(),
            previous_secret_expires_at: view.previous_secret_expires_at,
            created_at: config.created_at,
            updated_at: config.updated_at,
        }
    }
}

/// A change of the wallet adapter.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PutWalletAdapterBody {
    /// Absolute URL without query or fragment; `https` in production, and not a private,
    /// loopback or link-local address. A trailing `/` is removed.
    pub base_url: String,
    /// 1000 to 30000 milliseconds; 10000 when absent.
    #[serde(default)]
    pub timeout_ms: Option<i64>,
    /// Make a new signing secret; the previous one keeps signing for 24 hours.
    #[serde(default)]
    pub rotate_secret: bool,
}

/// The saved configuration, with the signing secret when this change made one.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedWalletAdapterBody {
    /// The configuration.
    #[serde(flatten)]
    pub adapter: WalletAdapterBody,
    /// `whsec_…`: present only on the first change and on rotation. It cannot be shown again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signing_secret: Option<String>,
}

impl From<SavedWalletAdapter> for SavedWalletAdapterBody {
    fn from(saved: SavedWalletAdapter) -> Self {
        Self {
            signing_secret: saved.new_secret.map(|secret| secret.reveal()),
            adapter: saved.adapter.into(),
        }
    }
}
