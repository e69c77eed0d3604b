//! The operator API's request rate limit, per operator: whatever number of keys and staff
//! sessions an operator uses, they share one budget, so one runaway integration cannot
//! take the service from the others. Each instance keeps one GCRA bucket per operator in
//! memory (`governor`): a burst of the whole per-minute quota, refilled evenly over the
//! minute. Every answer to an authenticated request says where the operator stands, in the
//! IETF `RateLimit-Policy` and `RateLimit` fields; a refusal is 429 `rate_limited` with
//! `Retry-After`.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};
use opinion_core::OperatorId;

/// The header naming the policy: its quota and window.
pub const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
/// The header saying what remains of the quota and when it is whole again.
pub const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");
/// The policy's name in both headers.
const POLICY_NAME: &str = "operator";
/// The window the quota is stated over.
const WINDOW: Duration = Duration::from_secs(60);

type Buckets<C> = RateLimiter<OperatorId, DashMapStateStore<OperatorId>, C, StateInformationMiddleware>;

/// One bucket per operator, shared by every worker of the instance.
#[derive(Clone)]
pub struct OperatorRateLimit<C: Clock = DefaultClock> {
    per_minute: NonZeroU32,
    buckets: Arc<Buckets<C>>,
}

impl OperatorRateLimit {
    /// A limit of `per_minute` requests per operator, on the system's monotonic clock.
    pub fn per_minute(per_minute: NonZeroU32) -> Self {
        Self::with_clock(per_minute, DefaultClock::default())
    }
}

impl<C: Clock> OperatorRateLimit<C> {
    /// A limit of `per_minute` requests per operator, on `clock`.
    pub fn with_clock(per_minute: NonZeroU32, clock: C) -> Self {
        Self {
            per_minute,
            buckets: Arc::new(
                RateLimiter::dashmap_with_clock(Quota::per_minute(per_minute), clock)
                    .with_middleware::<StateInformationMiddleware>(),
            ),
        }
    }

    /// Counts one request of `operator` and says whether it may run.
    pub fn admit(&self, operator: OperatorId) -> Standing {
        let interval = WINDOW / self.per_minute.get();
        let quota = self.per_minute.get();
        match self.buckets.check_key(&operator) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                Standing {
                    quota,
                    remaining,
                    whole_in_secs: whole_seconds(interval * (quota - remaining)),
                    retry_after_secs: None,
                }
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.buckets.clock().now());
                Standing {
                    quota,
                    remaining: 0,
                    whole_in_secs: whole_seconds(wait + interval * (quota - 1)),
                    retry_after_secs: Some(whole_seconds(wait).max(1)),
                }
            }
        }
    }
}

/// Where an operator stands after one request was counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    quota: u32,
    remaining: u32,
    whole_in_secs: u64,
    retry_after_secs: Option<u64>,
}

impl Standing {
    /// When the request is refused, the seconds until one more may run.
    pub fn retry_after_secs(&self) -> Option<u64> {
        self.retry_after_secs
    }

    /// Writes the policy and the operator's standing into an answer's headers.
    pub fn write_to(&self, headers: &mut HeaderMap) {
        let policy = format!("\"{POLICY_NAME}\";q={};w={}", self.quota, WINDOW.as_secs());
        let standing = format!("\"{POLICY_NAME}\";r={};t={}", self.remaining, self.whole_in_secs);
        for (name, value) in [(RATELIMIT_POLICY, policy), (RATELIMIT, standing)] {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.insert(name, value);
            }
        }
    }
}

/// `duration` in whole seconds, rounded up: a client that waits that long is never early.
fn whole_seconds(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    fn limit(per_minute: u32) -> (OperatorRateLimit<FakeRelativeClock>, FakeRelativeClock) {
        let clock = FakeRelativeClock::default();
        let limit = OperatorRateLimit::with_clock(NonZeroU32::new(per_minute).unwrap(), clock.clone());
        (limit, clock)
    }

    fn header(standing: &Standing, name: HeaderName) -> String {
        let mut headers = HeaderMap::new();
        standing.write_to(&mut headers);
        headers.get(name).unwrap().to_str().unwrap().to_owned()
    }

    #[test]
    fn the_whole_quota_is_a_burst_then_requests_wait_for_the_refill() {
        let (limit, clock) = limit(3);
        let operator = OperatorId::from_u128(1);
        let remaining: Vec<u32> = (0..3).map(|_| limit.admit(operator).remaining).collect();
        assert_eq!(remaining, [2, 1, 0]);
        let refused = limit.admit(operator);
        assert_eq!(refused.retry_after_secs(), Some(20), "one request per 20 s refills");
        clock.advance(Duration::from_secs(19));
        assert_eq!(limit.admit(operator).retry_after_secs(), Some(1));
        clock.advance(Duration::from_secs(1));
        assert_eq!(limit.admit(operator).retry_after_secs(), None);
    }

    #[test]
    fn operators_have_their_own_buckets() {
        let (limit, _) = limit(1);
        let (first, second) = (OperatorId::from_u128(1), OperatorId::from_u128(2));
        assert_eq!(limit.admit(first).retry_after_secs(), None);
        assert!(limit.admit(first).retry_after_secs().is_some());
        assert_eq!(limit.admit(second).retry_after_secs(), None);
    }

    #[test]
    fn headers_state_the_policy_and_when_the_quota_is_whole_again() {
        let (limit, _) = limit(60);
        let operator = OperatorId::from_u128(1);
        let first = limit.admit(operator);
        assert_eq!(header(&first, RATELIMIT_POLICY), "\"operator\";q=60;w=60");
        assert_eq!(header(&first, RATELIMIT), "\"operator\";r=59;t=1");
        let second = limit.admit(operator);
        assert_eq!(header(&second, RATELIMIT), "\"operator\";r=58;t=2");
    }

    #[test]
    fn a_refusal_says_the_quota_is_whole_a_window_later() {
        let (limit, _) = limit(2);
        let operator = OperatorId::from_u128(1);
        limit.admit(operator);
        limit.admit(operator);
        let refused = limit.admit(operator);
        assert_eq!(refused.retry_after_secs(), Some(30));
        assert_eq!(header(&refused, RATELIMIT), "\"operator\";r=0;t=60");
    }

    #[test]
    fn seconds_round_up() {
        assert_eq!(whole_seconds(Duration::from_millis(1)), 1);
        assert_eq!(whole_seconds(Duration::from_secs(2)), 2);
        assert_eq!(whole_seconds(Duration::from_millis(2_001)), 3);
    }
}
