//! The playground console setting on the wire.

use opinion_app::model::PlaygroundSetting;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// What the docs' playground console may send for the operator.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlaygroundBody {
    /// In production: `read_only` (the default) sends `GET` requests only, `read_write`
    /// every method the pasted key's scopes allow. Development and staging always send
    /// every method.
    #[schema(example = "read_only")]
    pub console: String,
    /// When it was last chosen; `null` before the first `PUT`.
    #[serde(with = "time::serde::rfc3339::option")]
    pub updated_at: Option<OffsetDateTime>,
}

impl From<PlaygroundSetting> for PlaygroundBody {
    fn from(setting: PlaygroundSetting) -> Self {
        Self {
            console: setting.console.as_str().to_owned(),
            updated_at: setting.updated_at,
        }
    }
}

/// `PUT /api/operator/playground`: the console's choice in production.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PutPlaygroundBody {
    /// `read_only` or `read_write`.
    #[schema(example = "read_write")]
    pub console: String,
}
