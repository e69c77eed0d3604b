//! The states of a wallet operation, as stored. Which moves between them are allowed is
//! in `operation.rs`; this file only names them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Where a wallet operation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperationState {
    /// Persisted with its key and fingerprint, and provably not sent: the call may be made.
    Prepared,
    /// Persisted as sent **before** the first byte of the call is written, so a crash
    /// during the call leaves a record that the outcome is unknown.
    Sent,
    /// The wallet applied the mutation.
    Applied,
    /// The wallet definitely refused the mutation; nothing moved.
    Rejected,
    /// A primary mutation's outcome is unknown; only platform staff can settle it (rule 4).
    ManualReview,
    /// Staff found the mutation applied in the operator's wallet log.
    ResolvedApplied,
    /// Staff found the mutation not applied in the operator's wallet log.
    ResolvedNotApplied,
    /// A primary mutation that was never sent and never will be: the business action was
    /// given up before any call could reach the wallet.
    Abandoned,
}

/// A stored state name that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown wallet operation state `{0}`")]
pub struct UnknownState(pub String);

impl OperationState {
    /// Every state.
    pub const ALL: [OperationState; 8] = [
        Self::Prepared,
        Self::Sent,
        Self::Applied,
        Self::Rejected,
        Self::ManualReview,
        Self::ResolvedApplied,
        Self::ResolvedNotApplied,
        Self::Abandoned,
    ];

    /// Stable snake_case name for storage and the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Prepared => "prepared",
            Self::Sent => "sent",
            Self::Applied => "applied",
            Self::Rejected => "rejected",
            Self::ManualReview => "manual_review",
            Self::ResolvedApplied => "resolved_applied",
            Self::ResolvedNotApplied => "resolved_not_applied",
            Self::Abandoned => "abandoned",
        }
    }

    /// Whether nothing can ever happen to the operation again.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            Self::Applied | Self::Rejected | Self::ResolvedApplied | Self::ResolvedNotApplied | Self::Abandoned
        )
    }

    /// Whether the money moved, as far as is known: `None` while it is not known.
    pub const fn money_moved(self) -> Option<bool> {
        match self {
            Self::Applied | Self::ResolvedApplied => Some(true),
            Self::Rejected | Self::ResolvedNotApplied | Self::Abandoned | Self::Prepared => Some(false),
            Self::Sent | Self::ManualReview => None,
        }
    }
}

impl fmt::Display for OperationState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for OperationState {
    type Err = UnknownState;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|state| state.as_str() == text)
            .ok_or_else(|| UnknownState(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for state in OperationState::ALL {
            assert_eq!(state.as_str().parse::<OperationState>(), Ok(state));
        }
        assert!("ManualReview".parse::<OperationState>().is_err());
    }

    #[test]
    fn terminal_states_are_the_settled_ones() {
        let terminal: Vec<_> = OperationState::ALL.into_iter().filter(|s| s.is_terminal()).collect();
        assert_eq!(
            terminal,
            [
                OperationState::Applied,
                OperationState::Rejected,
                OperationState::ResolvedApplied,
                OperationState::ResolvedNotApplied,
                OperationState::Abandoned,
            ]
        );
    }

    #[test]
    fn only_sent_and_manual_review_leave_the_money_unknown() {
        let unknown: Vec<_> = OperationState::ALL
            .into_iter()
            .filter(|s| s.money_moved().is_none())
            .collect();
        assert_eq!(unknown, [OperationState::Sent, OperationState::ManualReview]);
    }
}
