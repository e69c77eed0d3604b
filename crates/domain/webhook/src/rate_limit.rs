//! An endpoint's optional rate limit: at most `n` attempts a minute, spaced evenly. The
//! limit is kept as the endpoint's next allowed send time in the database, which every
//! worker of every instance reserves atomically before an attempt (see the store), so it
//! holds across instances; this file says what one reservation costs.

use serde::{Deserialize, Serialize};

/// Attempts per minute an endpoint accepts, 1 to [`RateLimit::MAX_PER_MINUTE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct RateLimit(u32);

/// A rate limit outside the accepted range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a rate limit is 1 to {max} attempts per minute", max = RateLimit::MAX_PER_MINUTE)]
pub struct RateLimitError;

impl RateLimit {
    /// Highest limit: 1,000 a second. Above that an endpoint is better left unlimited.
    pub const MAX_PER_MINUTE: u32 = 60_000;

    /// Validates a per-minute limit.
    pub fn per_minute(value: u32) -> Result<Self, RateLimitError> {
        if (1..=Self::MAX_PER_MINUTE).contains(&value) {
            Ok(Self(value))
        } else {
            Err(RateLimitError)
        }
    }

    /// The limit, in attempts per minute.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The gap one attempt reserves, in microseconds: the next attempt to the endpoint
    /// may start no earlier than this after the previous one's reservation. Evenly
    /// spaced rather than a burst allowance, so a receiver sized for `n` a minute never
    /// sees `n` in one second.
    pub const fn spacing_micros(self) -> i64 {
        60_000_000 / self.0 as i64
    }
}

impl TryFrom<u32> for RateLimit {
    type Error = RateLimitError;

    fn try_from(value: u32) -> Result<Self, Self::Error> {
        Self::per_minute(value)
    }
}

impl From<RateLimit> for u32 {
    fn from(limit: RateLimit) -> Self {
        limit.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn bounds() {
        assert_eq!(RateLimit::per_minute(0), Err(RateLimitError));
        assert_eq!(RateLimit::per_minute(60_001), Err(RateLimitError));
        assert_eq!(RateLimit::per_minute(1).map(RateLimit::spacing_micros), Ok(60_000_000));
        assert_eq!(RateLimit::per_minute(60).map(RateLimit::spacing_micros), Ok(1_000_000));
        assert_eq!(RateLimit::per_minute(60_000).map(RateLimit::spacing_micros), Ok(1_000));
        assert!(serde_json::from_str::<RateLimit>("0").is_err());
        assert_eq!(
            serde_json::from_str::<RateLimit>("120").ok(),
            RateLimit::per_minute(120).ok()
        );
    }

    proptest! {
        /// `n` reservations in a row span a minute, less at most a microsecond each
        /// (the spacing is rounded down), and never more than a minute.
        #[test]
        fn n_attempts_take_about_a_minute(n in 1u32..=60_000) {
            let limit = RateLimit::per_minute(n).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let total = limit.spacing_micros() * i64::from(n);
            prop_assert!(total <= 60_000_000);
            prop_assert!(total > 60_000_000 - i64::from(n));
        }
    }
}
