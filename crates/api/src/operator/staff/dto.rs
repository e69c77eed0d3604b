//! Staff members on the wire.

use opinion_app::access::StaffWithPassword;
use opinion_app::model::StaffMember;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// A staff member (never with a password or its hash).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffBody {
    /// `stf_…`
    pub id: String,
    /// Login e-mail, lower case.
    pub email: String,
    /// Display name.
    pub name: String,
    /// Dashboard scopes, or `["*"]`.
    pub scopes: Vec<String>,
    /// Disabled members cannot log in.
    pub disabled: bool,
    /// Creation time (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Last change (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<StaffMember> for StaffBody {
    fn from(member: StaffMember) -> Self {
        Self {
            id: member.id.to_string(),
            email: member.email.to_string(),
            name: member.name,
            scopes: member.grant.to_strings(),
            disabled: member.disabled,
            created_at: member.created_at,
            updated_at: member.updated_at,
        }
    }
}

/// A member with the password the service generated, shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffWithPasswordBody {
    /// The member.
    #[serde(flatten)]
    pub staff: StaffBody,
    /// Present only when the service chose the password.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temporary_password: Option<String>,
}

impl From<StaffWithPassword> for StaffWithPasswordBody {
    fn from(created: StaffWithPassword) -> Self {
        Self {
            staff: created.member.into(),
            temporary_password: created.generated_password,
        }
    }
}

/// A new member's request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateStaffBody {
    /// Login e-mail, unique across the platform.
    pub email: String,
    /// Display name.
    pub name: String,
    /// Dashboard scopes, or `["*"]`; no more than the caller holds.
    pub scopes: Vec<String>,
    /// Initial password (12 to 256 characters); generated and returned once when absent.
    #[serde(default)]
    pub password: Option<String>,
}

/// A change to a member; absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateStaffBody {
    /// New display name.
    #[serde(default)]
    pub name: Option<String>,
    /// New scopes.
    #[serde(default)]
    pub scopes: Option<Vec<String>>,
    /// Disable (ends every session of the member) or re-enable.
    #[serde(default)]
    pub disabled: Option<bool>,
}

/// A password reset; an empty body lets the service generate the password.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResetPasswordBody {
    /// The new password (12 to 256 characters); generated and returned once when absent.
    #[serde(default)]
    pub password: Option<String>,
}

/// A member's change of their own password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OwnPasswordBody {
    /// The password now in force.
    pub current_password: String,
    /// The new password (12 to 256 characters, not the current one).
    pub new_password: String,
}
