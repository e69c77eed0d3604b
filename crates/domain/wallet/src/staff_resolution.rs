//! The record with which platform staff settle an operation in manual review: who, what
//! the operator's wallet log shows, and why (contract rules 4 and 7). The operator cannot
//! make one: manual resolution is read-only for operators.

use opinion_core::Label;

use crate::remote_reference::RemoteReference;

/// What the operator's wallet log shows for the operation's idempotency key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalletLogFinding {
    /// The wallet applied the mutation; its reference is in the log.
    Applied {
        /// The reference the log shows.
        remote_reference: RemoteReference,
    },
    /// The wallet has no applied mutation under the key.
    NotApplied,
}

/// A platform staff member's resolution of one operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffResolution {
    /// The platform staff member, as named in the admin tool.
    pub resolved_by: Label,
    /// What the operator's wallet log shows.
    pub finding: WalletLogFinding,
    /// Why staff trust the finding: which log, which balance operations, which timestamps.
    pub note: Label,
}
