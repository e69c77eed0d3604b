//! Serving players on launch hosts: a request's host names the operator served there,
//! and a launch token or player session of any other operator is refused on it, so one
//! operator's players can never be shown the app under another operator's name.

use opinion_core::OperatorId;
use opinion_launch::LaunchHost;

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::model::LaunchSite;
use crate::players::Players;

impl Players {
    /// The operator served on the host a request named (its `Host` header), with the
    /// sites that may frame the app there; `None` on the service's public host and on any
    /// host that is nobody's launch host, which serve every operator.
    pub async fn site_for_host(&self, host_header: Option<&str>) -> Result<Option<LaunchSite>, AppError> {
        let Some(host) = host_header.and_then(LaunchHost::of_request) else {
            return Ok(None);
        };
        if self.public_host.as_ref() == Some(&host) {
            return Ok(None);
        }
        Ok(self.ports.settings.find_launch_site(&host).await?)
    }

    /// Refuses a credential of `operator` presented on another operator's launch host.
    pub(crate) async fn check_arrival(&self, host_header: Option<&str>, operator: OperatorId) -> Result<(), AppError> {
        match self.site_for_host(host_header).await? {
            Some(site) if site.operator_id != operator => {
                tracing::info!(host_operator_id = %site.operator_id, "credential of another operator on a launch host");
                Err(AuthFailure::ForeignLaunchHost.into())
            }
            _ => Ok(()),
        }
    }
}
