//! When a failed delivery is tried again. Attempt 1 is sent at once; after attempt `n`
//! fails, attempt `n + 1` waits `RETRY_DELAYS_SECS[n - 1]` seconds (a day once past the
//! table), scaled by a jitter factor in [0.8, 1.2) so that many deliveries failing
//! together (an endpoint coming back up) do not all retry in the same second. How many
//! attempts a delivery gets is its endpoint's [`MaxAttempts`] (twelve by default: the
//! base delays then sum to 254,555 s, about 2.95 days, so with jitter the last attempt
//! lands between about 2.36 and 3.54 days after the first). The jitter is a random `u32`
//! the caller draws; this crate draws none.
//!
//! | after attempt | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 to 19 |
//! |---|---|---|---|---|---|---|---|---|---|---|---|---|
//! | base wait | 5 s | 30 s | 2 min | 10 min | 30 min | 1 h | 3 h | 6 h | 12 h | 24 h | 24 h | 24 h |

use crate::delivery_settings::MaxAttempts;

/// Base wait, in seconds, before attempt `n + 1`, at index `n - 1`; later waits are
/// [`LATE_DELAY_SECS`].
pub const RETRY_DELAYS_SECS: [u64; 11] = [5, 30, 120, 600, 1_800, 3_600, 10_800, 21_600, 43_200, 86_400, 86_400];

/// Base wait before every attempt past the table: a day.
pub const LATE_DELAY_SECS: u64 = 86_400;

/// Longest wait a receiver's `Retry-After` can ask for: a day, the longest base delay, so
/// a receiver cannot park a delivery beyond the retry window.
pub const MAX_RETRY_AFTER_SECS: u64 = 86_400;

/// Seconds to wait before the next attempt, after attempt number `failed_attempt`
/// (1-based) failed; `None` once the endpoint's `max_attempts` are exhausted (or for
/// attempt 0, which does not exist). `jitter` is a uniformly random `u32`; the wait is
/// `base × (0.8 + 0.4 × jitter / 2³²)`, rounded down, so always within [80 %, 120 %) of
/// the base.
pub fn next_attempt_delay(failed_attempt: u32, max_attempts: MaxAttempts, jitter: u32) -> Option<u64> {
    if failed_attempt == 0 || max_attempts.exhausted_after(failed_attempt) {
        return None;
    }
    let index = usize::try_from(failed_attempt - 1).ok()?;
    let base = RETRY_DELAYS_SECS.get(index).copied().unwrap_or(LATE_DELAY_SECS);
    let low = base - base / 5;
    let spread = ((base * 2 / 5) * u64::from(jitter)) >> 32;
    Some(low + spread)
}

/// The wait after a failed attempt whose answer carried `Retry-After: retry_after_secs`
/// (delta-seconds; the adapter converts an HTTP date). The receiver may ask to wait
/// longer than the schedule, up to [`MAX_RETRY_AFTER_SECS`], but never shorter: a
/// `Retry-After: 0` must not turn the schedule into a tight loop. Without the header the
/// schedule's delay stands.
pub fn delay_with_retry_after(schedule_delay: u64, retry_after_secs: Option<u64>) -> u64 {
    match retry_after_secs {
        Some(asked) => asked.min(MAX_RETRY_AFTER_SECS).max(schedule_delay),
        None => schedule_delay,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DAY: u64 = 86_400;

    fn max(n: u32) -> MaxAttempts {
        MaxAttempts::new(n).unwrap_or_default()
    }

    #[test]
    fn twelve_attempts_by_default_over_about_three_days() {
        let default = MaxAttempts::default();
        assert_eq!(default.get(), 12);
        let total: u64 = (1..default.get())
            .filter_map(|n| next_attempt_delay(n, default, 1 << 31))
            .sum();
        let base_total: u64 = RETRY_DELAYS_SECS.iter().sum();
        assert_eq!(base_total, 254_555);
        assert!(base_total * 2 >= 5 * DAY && base_total * 2 <= 7 * DAY, "{base_total}");
        assert_eq!(total, base_total);
    }

    #[test]
    fn jitter_extremes_keep_the_default_window_near_three_days() {
        let default = MaxAttempts::default();
        let shortest: u64 = (1..12).filter_map(|n| next_attempt_delay(n, default, 0)).sum();
        let longest: u64 = (1..12).filter_map(|n| next_attempt_delay(n, default, u32::MAX)).sum();
        assert!(shortest * 100 >= 235 * DAY, "{shortest}");
        assert!(longest * 100 <= 355 * DAY, "{longest}");
    }

    #[test]
    fn delays_grow_and_stop_at_the_endpoints_limit() {
        let default = MaxAttempts::default();
        assert_eq!(next_attempt_delay(0, default, 0), None);
        assert_eq!(next_attempt_delay(1, default, 1 << 31), Some(5));
        assert_eq!(next_attempt_delay(11, default, 1 << 31), Some(DAY));
        assert_eq!(next_attempt_delay(12, default, 0), None);
        assert_eq!(next_attempt_delay(u32::MAX, default, 0), None);
        assert_eq!(next_attempt_delay(1, max(1), 0), None);
        assert_eq!(next_attempt_delay(5, max(6), 1 << 31), Some(1_800));
        assert_eq!(next_attempt_delay(6, max(6), 1 << 31), None);
        assert_eq!(next_attempt_delay(12, max(20), 1 << 31), Some(DAY));
        assert_eq!(next_attempt_delay(19, max(20), 1 << 31), Some(DAY));
        assert_eq!(next_attempt_delay(20, max(20), 1 << 31), None);
        assert!(RETRY_DELAYS_SECS.windows(2).all(|pair| pair[0] <= pair[1]));
        assert!(RETRY_DELAYS_SECS.iter().all(|delay| *delay <= LATE_DELAY_SECS));
    }

    #[test]
    fn retry_after_is_honoured_within_bounds() {
        assert_eq!(delay_with_retry_after(30, None), 30);
        assert_eq!(delay_with_retry_after(30, Some(0)), 30);
        assert_eq!(delay_with_retry_after(30, Some(600)), 600);
        assert_eq!(delay_with_retry_after(30, Some(10 * DAY)), DAY);
        assert_eq!(delay_with_retry_after(100_000, Some(10 * DAY)), 100_000);
    }

    proptest! {
        #[test]
        fn jitter_stays_within_twenty_percent(attempt in 1u32..20, jitter in any::<u32>()) {
            let base = RETRY_DELAYS_SECS.get(attempt as usize - 1).copied().unwrap_or(LATE_DELAY_SECS);
            let delay = next_attempt_delay(attempt, max(20), jitter);
            prop_assert!(delay.is_some());
            let delay = delay.unwrap_or_default();
            prop_assert!(delay * 5 >= base * 4, "{} < 80% of {}", delay, base);
            prop_assert!(delay * 5 < base * 6, "{} >= 120% of {}", delay, base);
        }

        /// Every endpoint gets exactly its number of attempts: a wait after each failure
        /// but the last.
        #[test]
        fn an_endpoint_gets_exactly_its_attempts(limit in 1u32..=20, jitter in any::<u32>()) {
            let limit = max(limit);
            let waits = (1..=40).take_while(|n| next_attempt_delay(*n, limit, jitter).is_some()).count();
            prop_assert_eq!(waits as u32 + 1, limit.get());
        }
    }
}
