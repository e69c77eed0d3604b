//! An operator's launch settings: where its players open the hosted app and which sites
//! may frame it there.

use opinion_core::OperatorId;
use opinion_launch::{FrameOrigins, LaunchHosts};
use time::OffsetDateTime;

/// The host names an operator points at the service and the origins allowed to frame
/// the hosted app on them. An operator that never set them has empty lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchSettings {
    pub operator_id: OperatorId,
    /// Host names its launch URLs may use, each served for this operator only.
    pub hosts: LaunchHosts,
    /// Sites that may frame the hosted app on those hosts.
    pub frame_origins: FrameOrigins,
    /// When they were last replaced; `None` before the first time.
    pub updated_at: Option<OffsetDateTime>,
}

impl LaunchSettings {
    /// The settings of an operator that never set any.
    pub fn unset(operator_id: OperatorId) -> Self {
        Self {
            operator_id,
            hosts: LaunchHosts::default(),
            frame_origins: FrameOrigins::default(),
            updated_at: None,
        }
    }
}

/// What a request's host says about who is served there: one operator, framed only by
/// its own origins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchSite {
    /// The operator whose launch host it is.
    pub operator_id: OperatorId,
    /// The sites that may frame the hosted app there.
    pub frame_origins: FrameOrigins,
}
