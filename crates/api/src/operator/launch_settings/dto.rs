//! Launch settings on the wire: two lists, replaced whole by `PUT`.

use opinion_app::model::LaunchSettings;
use opinion_launch::{FrameOrigin, LaunchHost};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// The operator's launch settings.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LaunchSettingsBody {
    /// Host names (the operator's own sub-domains pointed at the service) a launch may
    /// name as `host`; the hosted app is served there for this operator only.
    #[schema(example = json!(["play.casino.example"]))]
    pub hosts: Vec<String>,
    /// The `https://` origins allowed to frame the hosted app on those hosts, sent as
    /// its `Content-Security-Policy: frame-ancestors`; none means no site may frame it.
    #[schema(example = json!(["https://casino.example"]))]
    pub frame_origins: Vec<String>,
    /// When they were last replaced; `null` before the first `PUT`.
    #[serde(with = "time::serde::rfc3339::option")]
    pub updated_at: Option<OffsetDateTime>,
}

impl From<LaunchSettings> for LaunchSettingsBody {
    fn from(settings: LaunchSettings) -> Self {
        Self {
            hosts: settings.hosts.as_slice().iter().map(LaunchHost::to_string).collect(),
            frame_origins: settings
                .frame_origins
                .as_slice()
                .iter()
                .map(FrameOrigin::to_string)
                .collect(),
            updated_at: settings.updated_at,
        }
    }
}

/// `PUT /api/operator/launch-settings`: the new lists, replacing the old ones.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PutLaunchSettingsBody {
    /// At most 10 lower-case host names without scheme, port or path, no repeats; each
    /// may belong to one operator only, and never the service's own host.
    pub hosts: Vec<String>,
    /// At most 10 origins `https://host[:port]` without a path, no repeats.
    pub frame_origins: Vec<String>,
}
