//! Staff sessions on the wire: the login and the session it starts.

use opinion_app::access::StartedSession;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::operator::staff::dto::StaffBody;

/// Login credentials.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoginBody {
    /// Login e-mail.
    pub email: String,
    /// Password.
    pub password: String,
}

/// A started session.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionBody {
    /// Send as `Authorization: Bearer …` (browsers get it as an HttpOnly cookie too).
    pub token: String,
    /// `ses_…`
    pub session_id: String,
    /// When the session stops working (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    /// Who logged in.
    pub staff: StaffBody,
}

impl From<StartedSession> for SessionBody {
    fn from(started: StartedSession) -> Self {
        Self {
            token: started.token,
            session_id: started.session.id.to_string(),
            expires_at: started.session.expires_at,
            staff: started.member.into(),
        }
    }
}
