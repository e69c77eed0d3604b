//! An endpoint's own delivery settings: how many scheduled attempts a delivery gets
//! before it becomes a dead letter, and how long one attempt may take. Both are bounded
//! here, once, and default to the service's schedule (twelve attempts over about three
//! days, fifteen seconds each), so an endpoint registered without them behaves as every
//! endpoint always has.
//!
//! | setting | bounds | default | why the bounds |
//! |---|---|---|---|
//! | `maxAttempts` | 1 to 20 | 12 | one attempt is "no retries"; twenty reach about eleven days, past the five days after which a failing endpoint is disabled anyway |
//! | `timeoutSeconds` | 1 to 30 | 15 | below a second ordinary network jitter fails attempts; above thirty a slow receiver holds a worker's slot too long |

use serde::{Deserialize, Serialize};

/// Scheduled attempts a delivery gets, the first included, before it is a dead letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct MaxAttempts(u32);

/// A number of attempts outside the accepted range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("max attempts is {min} to {max}", min = MaxAttempts::MIN, max = MaxAttempts::MAX)]
pub struct MaxAttemptsError;

impl MaxAttempts {
    /// Fewest: a single attempt, never retried.
    pub const MIN: u32 = 1;
    /// Most: with the schedule's daily waits after the eleventh, about eleven days.
    pub const MAX: u32 = 20;
    /// The service's schedule: twelve attempts over about three days.
    pub const DEFAULT: Self = Self(12);

    /// Validates a number of attempts.
    pub fn new(attempts: u32) -> Result<Self, MaxAttemptsError> {
        if (Self::MIN..=Self::MAX).contains(&attempts) {
            Ok(Self(attempts))
        } else {
            Err(MaxAttemptsError)
        }
    }

    /// The number of attempts.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// Whether a delivery that has made `scheduled_attempts` attempts, all failed, has
    /// none left: it is then a dead letter, sent again only by a replay.
    pub const fn exhausted_after(self, scheduled_attempts: u32) -> bool {
        scheduled_attempts >= self.0
    }
}

impl Default for MaxAttempts {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl TryFrom<u32> for MaxAttempts {
    type Error = MaxAttemptsError;

    fn try_from(value: u32) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<MaxAttempts> for u32 {
    fn from(attempts: MaxAttempts) -> Self {
        attempts.0
    }
}

/// How long one attempt may take, connecting and reading the answer included, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct AttemptTimeout(u32);

/// A time limit outside the accepted range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("timeout is {min} to {max} seconds", min = AttemptTimeout::MIN_SECS, max = AttemptTimeout::MAX_SECS)]
pub struct AttemptTimeoutError;

impl AttemptTimeout {
    /// Shortest: a second.
    pub const MIN_SECS: u32 = 1;
    /// Longest: half a minute.
    pub const MAX_SECS: u32 = 30;
    /// The service's limit before endpoints had their own.
    pub const DEFAULT: Self = Self(15);

    /// Validates a time limit in seconds.
    pub fn from_secs(secs: u32) -> Result<Self, AttemptTimeoutError> {
        if (Self::MIN_SECS..=Self::MAX_SECS).contains(&secs) {
            Ok(Self(secs))
        } else {
            Err(AttemptTimeoutError)
        }
    }

    /// The limit in seconds.
    pub const fn secs(self) -> u32 {
        self.0
    }
}

impl Default for AttemptTimeout {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl TryFrom<u32> for AttemptTimeout {
    type Error = AttemptTimeoutError;

    fn try_from(value: u32) -> Result<Self, Self::Error> {
        Self::from_secs(value)
    }
}

impl From<AttemptTimeout> for u32 {
    fn from(timeout: AttemptTimeout) -> Self {
        timeout.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn attempts_are_one_to_twenty_defaulting_to_twelve() {
        assert_eq!(MaxAttempts::new(0), Err(MaxAttemptsError));
        assert_eq!(MaxAttempts::new(21), Err(MaxAttemptsError));
        assert_eq!(MaxAttempts::new(1).map(MaxAttempts::get), Ok(1));
        assert_eq!(MaxAttempts::new(20).map(MaxAttempts::get), Ok(20));
        assert_eq!(MaxAttempts::default().get(), 12);
        assert!(serde_json::from_str::<MaxAttempts>("0").is_err());
        assert_eq!(serde_json::from_str::<MaxAttempts>("6").ok(), MaxAttempts::new(6).ok());
    }

    #[test]
    fn timeouts_are_one_to_thirty_seconds_defaulting_to_fifteen() {
        assert_eq!(AttemptTimeout::from_secs(0), Err(AttemptTimeoutError));
        assert_eq!(AttemptTimeout::from_secs(31), Err(AttemptTimeoutError));
        assert_eq!(AttemptTimeout::from_secs(1).map(AttemptTimeout::secs), Ok(1));
        assert_eq!(AttemptTimeout::from_secs(30).map(AttemptTimeout::secs), Ok(30));
        assert_eq!(AttemptTimeout::default().secs(), 15);
        assert!(serde_json::from_str::<AttemptTimeout>("31").is_err());
    }

    proptest! {
        #[test]
        fn bounds_hold_for_every_number(n in any::<u32>()) {
            prop_assert_eq!(MaxAttempts::new(n).is_ok(), (1..=20).contains(&n));
            prop_assert_eq!(AttemptTimeout::from_secs(n).is_ok(), (1..=30).contains(&n));
        }

        /// A delivery is exhausted exactly when it has made its endpoint's number of attempts.
        #[test]
        fn exhausted_exactly_at_the_limit(max in 1u32..=20, made in 0u32..=40) {
            let limit = MaxAttempts::new(max).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(limit.exhausted_after(made), made >= max);
        }
    }
}
