//! The two kinds of credential the contract knows.

use serde::Serialize;

/// How a caller authenticated; decides what `*` means and which routes it may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CredentialKind {
    /// An operator API key, used by the operator's servers.
    ApiKey,
    /// A dashboard staff session, used by the operator's staff.
    StaffSession,
}
