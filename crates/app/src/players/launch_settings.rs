//! `GET` and `PUT /api/operator/launch-settings`: the host names an operator's players
//! open the hosted app on, and the sites allowed to frame it there.

use opinion_launch::{FrameOrigins, LaunchHosts};

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::model::LaunchSettings;
use crate::players::Players;
use crate::players::ports::LaunchSettingsWrite;
use crate::ports::{StoreError, UniqueKey};

/// New launch settings, replacing the old ones whole.
#[derive(Debug, Clone, Default)]
pub struct LaunchSettingsChange {
    /// Host names, lower case, without scheme, port or path.
    pub hosts: Vec<String>,
    /// `https://` origins, without a path.
    pub frame_origins: Vec<String>,
}

impl Players {
    /// The caller's operator's launch settings; empty lists before the first change.
    pub async fn launch_settings(&self, caller: &Principal) -> Result<LaunchSettings, AppError> {
        let stored = self.ports.settings.find_launch_settings(caller.operator_id).await?;
        Ok(stored.unwrap_or_else(|| LaunchSettings::unset(caller.operator_id)))
    }

    /// Replaces the caller's operator's launch settings. A host another operator already
    /// uses, or the service's own public host, is refused and nothing changes.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn set_launch_settings(
        &self,
        caller: &Principal,
        change: LaunchSettingsChange,
    ) -> Result<LaunchSettings, AppError> {
        let hosts = LaunchHosts::parse(&change.hosts).map_err(|e| AppError::invalid("hosts", e))?;
        let frame_origins =
            FrameOrigins::parse(&change.frame_origins).map_err(|e| AppError::invalid("frameOrigins", e))?;
        if let Some(public) = self.public_host.as_ref().filter(|public| hosts.contains(public)) {
            return Err(AppError::invalid(
                "hosts",
                format!("`{public}` is the service's own address, which serves every operator"),
            ));
        }
        let now = self.ports.clock.now();
        let settings = LaunchSettings {
            operator_id: caller.operator_id,
            hosts,
            frame_origins,
            updated_at: Some(now),
        };
        match self.ports.settings.replace_launch_settings(&settings, now).await {
            Ok(LaunchSettingsWrite::Saved) => {
                let hosts = settings.hosts.as_slice().len();
                tracing::info!(actor = %caller.actor_id(), hosts, "launch settings replaced");
                Ok(settings)
            }
            Ok(LaunchSettingsWrite::HostTaken(host)) => Err(host_taken(&format!("`{host}` is"))),
            Err(StoreError::Duplicate(UniqueKey::LaunchHost)) => Err(host_taken("one of the hosts was just made")),
            Err(error) => Err(error.into()),
        }
    }
}

/// The refusal of a host that belongs to another operator.
fn host_taken(which: &str) -> AppError {
    AppError::Conflict {
        code: ProblemCode::LaunchHostTaken,
        detail: format!("{which} another operator's launch host; a host serves one operator only"),
    }
}
