//! How many of the things an operator creates for itself it may hold at once. Each
//! one costs the platform on every use (every event fans out to every endpoint, every
//! key is a credential to check and revoke, every member can sign in), so a leaked
//! `*` key or a runaway script cannot create them without end.

use std::fmt;

/// One of the capped things.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OperatorCap {
    /// Webhook endpoints not deleted (disabled ones included: they can be enabled again).
    WebhookEndpoints,
    /// API keys neither revoked nor expired.
    ActiveApiKeys,
    /// Staff members not disabled.
    EnabledStaff,
}

impl OperatorCap {
    /// Every cap, in the order the limits table lists them.
    pub const ALL: [Self; 3] = [Self::WebhookEndpoints, Self::ActiveApiKeys, Self::EnabledStaff];

    /// The most an operator may hold.
    pub const fn limit(self) -> u32 {
        match self {
            Self::WebhookEndpoints => 100,
            Self::ActiveApiKeys => 200,
            Self::EnabledStaff => 500,
        }
    }

    /// What is counted, in words, and what makes room for another.
    pub const fn counted(self) -> (&'static str, &'static str) {
        match self {
            Self::WebhookEndpoints => ("webhook endpoints", "delete one"),
            Self::ActiveApiKeys => ("active API keys", "revoke one"),
            Self::EnabledStaff => ("enabled staff members", "disable one"),
        }
    }
}

impl fmt::Display for OperatorCap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, room) = self.counted();
        write!(
            f,
            "the operator already has {} {what}, the most it may have; {room} first",
            self.limit()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cap_is_far_above_what_an_integration_needs_and_says_how_to_make_room() {
        for cap in OperatorCap::ALL {
            assert!(cap.limit() >= 100, "{cap:?}");
            assert!(cap.to_string().ends_with(" first"), "{cap}");
        }
        assert_eq!(
            OperatorCap::ActiveApiKeys.to_string(),
            "the operator already has 200 active API keys, the most it may have; revoke one first"
        );
    }
}
