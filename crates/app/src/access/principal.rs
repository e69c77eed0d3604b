//! Who is calling: the result of authentication, carried through a request.

use opinion_access::{CredentialKind, Grant};
use opinion_core::{ApiKeyId, OperatorId, StaffId, StaffSessionId};

/// The authenticated caller of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The operator every read and write of the request is confined to.
    pub operator_id: OperatorId,
    /// What the caller may do.
    pub grant: Grant,
    /// Which credential authenticated the call.
    pub actor: Actor,
}

/// The credential behind a principal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// An operator API key.
    ApiKey(ApiKeyId),
    /// A dashboard staff member in a session.
    Staff {
        /// The member.
        staff_id: StaffId,
        /// The session.
        session_id: StaffSessionId,
    },
}

impl Principal {
    /// The kind of credential, which decides what `*` means.
    pub fn kind(&self) -> CredentialKind {
        match self.actor {
            Actor::ApiKey(_) => CredentialKind::ApiKey,
            Actor::Staff { .. } => CredentialKind::StaffSession,
        }
    }

    /// The actor's id as text, for logs and audit.
    pub fn actor_id(&self) -> String {
        match self.actor {
            Actor::ApiKey(id) => id.to_string(),
            Actor::Staff { staff_id, .. } => staff_id.to_string(),
        }
    }
}
