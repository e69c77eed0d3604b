//! Dashboard staff members and their sessions.

use opinion_access::{Grant, StaffEmail};
use opinion_core::{OperatorId, StaffId, StaffSessionId};
use time::OffsetDateTime;

/// A person of an operator who uses the dashboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffMember {
    pub id: StaffId,
    /// The operator the member works for.
    pub operator_id: OperatorId,
    /// Login name, unique across the platform.
    pub email: StaffEmail,
    /// Display name.
    pub name: String,
    /// What the member may do in the dashboard.
    pub grant: Grant,
    /// A disabled member cannot log in and has no live sessions.
    pub disabled: bool,
    /// When the member was created.
    pub created_at: OffsetDateTime,
    /// When the member was last changed.
    pub updated_at: OffsetDateTime,
}

/// A change to a member; absent fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaffPatch {
    /// New display name.
    pub name: Option<String>,
    /// New scopes.
    pub grant: Option<Grant>,
    /// Disable or re-enable.
    pub disabled: Option<bool>,
}

/// A server-side staff session: the signed token names it, and ending it here ends the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffSession {
    /// Its id, carried in the token.
    pub id: StaffSessionId,
    /// The member's operator.
    pub operator_id: OperatorId,
    /// The member.
    pub staff_id: StaffId,
    /// When it started.
    pub created_at: OffsetDateTime,
    /// When it stops working.
    pub expires_at: OffsetDateTime,
    /// When it was ended early (logout, password reset, member disabled).
    pub ended_at: Option<OffsetDateTime>,
}

impl StaffSession {
    /// Whether the session authenticates a request made at `now`.
    pub fn is_live_at(&self, now: OffsetDateTime) -> bool {
        self.ended_at.is_none() && now < self.expires_at
    }
}
