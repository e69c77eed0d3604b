//! How many times money owed to a player is sent automatically before staff take over.
//! A credit that must be sent again (not sent, or a compensation's ambiguous answer) is
//! retried with its one key; past the limit it goes to manual review instead of waiting
//! for its next attempt, and its key is never sent again except by staff's decision.

/// The most automatic sends of one owed credit, its first included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryLimit {
    max_attempts: u32,
}

impl RetryLimit {
    /// Sixteen sends: with the workers' default schedule (30 s doubled per attempt, at most
    /// 1 h between two) the last is sent about nine hours after the first, past a wallet's
    /// working-day outage or an overnight maintenance window.
    pub const DEFAULT: RetryLimit = RetryLimit { max_attempts: 16 };

    /// A limit of `max_attempts` sends, at least one.
    pub const fn new(max_attempts: u32) -> Self {
        Self {
            max_attempts: if max_attempts == 0 { 1 } else { max_attempts },
        }
    }

    /// The most sends.
    pub const fn max_attempts(self) -> u32 {
        self.max_attempts
    }

    /// Whether an operation already sent `attempts` times may be sent once more.
    pub const fn allows_another(self, attempts: u32) -> bool {
        attempts < self.max_attempts
    }
}

impl Default for RetryLimit {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_allows_exactly_its_number_of_sends() {
        let limit = RetryLimit::new(3);
        assert!(limit.allows_another(0));
        assert!(limit.allows_another(2));
        assert!(!limit.allows_another(3));
        assert!(!limit.allows_another(u32::MAX));
        assert_eq!(RetryLimit::new(0).max_attempts(), 1);
        assert_eq!(RetryLimit::default().max_attempts(), 16);
    }
}
