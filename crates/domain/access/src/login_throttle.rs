//! Staff login throttling: how many password attempts an e-mail address and a client
//! address get, and how long a lock lasts. A counter admits its limit of attempts in a
//! window; the attempt after that is refused and locks the counter. Once a lock ends, one
//! attempt is admitted, and the next one locks again for twice as long (up to the longest
//! lock), until a window passes from the last lock. An attempt is counted when it arrives, before
//! the password is verified, so parallel guesses cannot slip past the count; a success
//! forgets the e-mail's count and gives the address back its own attempt. The counters
//! are keyed by what was typed, whether or not a member has that e-mail, so a throttled
//! answer says nothing about which accounts exist.

use std::net::IpAddr;

use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

/// What a counter counts attempts by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ThrottleKind {
    /// The e-mail address a login names (guessing one account's password).
    Email,
    /// The client address attempts come from (trying many accounts: spraying).
    Address,
}

impl ThrottleKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Address => "address",
        }
    }

    /// The kind a stored name names.
    pub fn from_stored(text: &str) -> Option<Self> {
        match text {
            "email" => Some(Self::Email),
            "address" => Some(Self::Address),
            _ => None,
        }
    }
}

/// One counter's key: its kind and the SHA-256 of the normalised e-mail or address, so
/// the counters never hold either in clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThrottleKey {
    /// What is counted.
    pub kind: ThrottleKind,
    /// SHA-256 of the normalised value.
    pub hash: [u8; 32],
}

impl ThrottleKey {
    /// The counter of the e-mail a login names, normalised as staff e-mails are (trimmed,
    /// lower case), whether or not it is a well-formed or known address.
    pub fn email(text: &str) -> Self {
        Self::of(ThrottleKind::Email, &text.trim().to_lowercase())
    }

    /// The counter of a client address: an IPv4 address itself, an IPv6 address by its
    /// /64 network, because one host commonly holds a whole /64.
    pub fn address(address: IpAddr) -> Self {
        let text = match address.to_canonical() {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => {
                let segments = v6.segments();
                format!(
                    "{:x}:{:x}:{:x}:{:x}::/64",
                    segments[0], segments[1], segments[2], segments[3]
                )
            }
        };
        Self::of(ThrottleKind::Address, &text)
    }

    fn of(kind: ThrottleKind, text: &str) -> Self {
        Self {
            kind,
            hash: Sha256::digest(text.as_bytes()).into(),
        }
    }
}

/// The state of one counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptCounter {
    /// When the current counting window began.
    pub window_started_at: OffsetDateTime,
    /// Attempts counted in the window.
    pub attempts: u32,
    /// Until when attempts are refused, if locked.
    pub locked_until: Option<OffsetDateTime>,
    /// Locks since the counter was last forgotten; each one doubles the next.
    pub lockouts: u32,
    /// The last change, after which the counter is forgotten once `forget_after` passes.
    pub updated_at: OffsetDateTime,
}

impl AttemptCounter {
    /// A counter that has seen nothing, as of `now`.
    pub fn fresh(now: OffsetDateTime) -> Self {
        Self {
            window_started_at: now,
            attempts: 0,
            locked_until: None,
            lockouts: 0,
            updated_at: now,
        }
    }
}

/// What the throttle decided about one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    /// The counters' new states, in the order they were given; `None` leaves one as it was.
    pub counters: Vec<Option<AttemptCounter>>,
    /// When refused, how long until the attempt may be made again.
    pub retry_after: Option<Duration>,
}

/// The throttling policy: the one rule for staff password attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginThrottle {
    /// Attempts one e-mail address gets per window.
    pub email_attempts: u32,
    /// Attempts one client address gets per window, across e-mail addresses.
    pub address_attempts: u32,
    /// The counting window, starting at its first attempt.
    pub window: Duration,
    /// The first lock; each further lock doubles it.
    pub lock: Duration,
    /// The longest lock.
    pub max_lock: Duration,
    /// A counter untouched this long is forgotten (its back-off included).
    pub forget_after: Duration,
}

/// Why a policy cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("login throttle: {0}")]
pub struct LoginThrottleError(&'static str);

impl Default for LoginThrottle {
    /// Five attempts per e-mail and fifty per client address in 15 minutes; locks of one
    /// minute doubling up to 15 minutes; counters forgotten after a quiet day.
    fn default() -> Self {
        Self {
            email_attempts: 5,
            address_attempts: 50,
            window: Duration::minutes(15),
            lock: Duration::minutes(1),
            max_lock: Duration::minutes(15),
            forget_after: Duration::days(1),
        }
    }
}

impl LoginThrottle {
    /// Refuses a policy that would never let anyone in or never lock.
    pub fn validate(&self) -> Result<(), LoginThrottleError> {
        if self.email_attempts == 0 || self.address_attempts == 0 {
            return Err(LoginThrottleError("at least one attempt per window is needed"));
        }
        if !self.window.is_positive() || !self.lock.is_positive() {
            return Err(LoginThrottleError("the window and the lock must be longer than zero"));
        }
        if self.max_lock < self.lock {
            return Err(LoginThrottleError(
                "the longest lock must not be shorter than the first",
            ));
        }
        if self.forget_after < self.window || self.forget_after < self.max_lock {
            return Err(LoginThrottleError(
                "counters must be kept at least as long as a window and the longest lock",
            ));
        }
        Ok(())
    }

    /// Attempts a counter of `kind` allows per window.
    pub fn limit(&self, kind: ThrottleKind) -> u32 {
        match kind {
            ThrottleKind::Email => self.email_attempts,
            ThrottleKind::Address => self.address_attempts,
        }
    }

    /// The lock after `lockouts` earlier locks: the first lock doubled each time, at most
    /// the longest lock.
    pub fn lock_for(&self, lockouts: u32) -> Duration {
        let factor = 2_i32.saturating_pow(lockouts.min(30));
        self.lock
            .checked_mul(factor)
            .map_or(self.max_lock, |lock| lock.min(self.max_lock))
    }

    /// Decides one attempt that every counter in `counters` (an e-mail's, an address's)
    /// must admit. Admitted, each counter counts it; refused by any, only the refusing
    /// counters change (a lock starts when one is over its limit), so a request that is
    /// not tried costs the others nothing.
    pub fn admit(&self, counters: &[(ThrottleKind, Option<AttemptCounter>)], now: OffsetDateTime) -> Admission {
        let decided: Vec<(AttemptCounter, Option<Duration>)> = counters
            .iter()
            .map(|(kind, counter)| self.admit_one(*kind, self.current(*counter, now), now))
            .collect();
        let retry_after = decided.iter().filter_map(|(_, wait)| *wait).max();
        let counters = decided
            .into_iter()
            .map(|(counter, wait)| (retry_after.is_none() || wait.is_some()).then_some(counter))
            .collect();
        Admission { counters, retry_after }
    }

    /// A counter of `kind` after an admitted attempt turned out right: an e-mail's is
    /// forgotten (count, lock and back-off), an address gets that attempt back.
    pub fn succeeded(
        &self,
        kind: ThrottleKind,
        counter: Option<AttemptCounter>,
        now: OffsetDateTime,
    ) -> AttemptCounter {
        let counter = self.current(counter, now);
        match kind {
            ThrottleKind::Email => AttemptCounter::fresh(now),
            ThrottleKind::Address => AttemptCounter {
                attempts: counter.attempts.saturating_sub(1),
                updated_at: now,
                ..counter
            },
        }
    }

    /// Whether a counter last changed at `updated_at` may be forgotten at `now`.
    pub fn forgotten(&self, updated_at: OffsetDateTime, now: OffsetDateTime) -> bool {
        updated_at + self.forget_after <= now
    }

    fn current(&self, counter: Option<AttemptCounter>, now: OffsetDateTime) -> AttemptCounter {
        match counter {
            Some(counter) if !self.forgotten(counter.updated_at, now) => counter,
            _ => AttemptCounter::fresh(now),
        }
    }

    fn admit_one(
        &self,
        kind: ThrottleKind,
        counter: AttemptCounter,
        now: OffsetDateTime,
    ) -> (AttemptCounter, Option<Duration>) {
        if let Some(until) = counter.locked_until.filter(|until| *until > now) {
            return (counter, Some(until - now));
        }
        let mut next = AttemptCounter {
            locked_until: None,
            updated_at: now,
            ..counter
        };
        if counter.window_started_at + self.window <= now {
            next.window_started_at = now;
            next.attempts = 0;
        }
        next.attempts += 1;
        if next.attempts <= self.limit(kind) {
            return (next, None);
        }
        let lock = self.lock_for(counter.lockouts);
        let locked = AttemptCounter {
            window_started_at: now,
            attempts: self.limit(kind) - 1,
            locked_until: Some(now + lock),
            lockouts: counter.lockouts.saturating_add(1),
            updated_at: now,
        };
        (locked, Some(lock))
    }
}

/// Whole seconds to announce in `Retry-After` for a wait: rounded up, at least one.
pub fn retry_after_secs(wait: Duration) -> u64 {
    let whole = wait.whole_seconds() + i64::from(wait.subsec_nanoseconds() > 0);
    u64::try_from(whole.max(1)).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use std::net::Ipv6Addr;

    use proptest::prelude::*;
    use time::macros::datetime;

    use super::*;

    const T0: OffsetDateTime = datetime!(2026-11-24 12:00 UTC);
    const EMAIL: ThrottleKind = ThrottleKind::Email;
    const ADDRESS: ThrottleKind = ThrottleKind::Address;

    fn policy() -> LoginThrottle {
        LoginThrottle {
            email_attempts: 3,
            address_attempts: 5,
            ..LoginThrottle::default()
        }
    }

    /// Runs attempts of one counter of `kind` at the given seconds after `T0`; the waits.
    fn run(
        policy: &LoginThrottle,
        kind: ThrottleKind,
        seconds: &[i64],
    ) -> (Option<AttemptCounter>, Vec<Option<Duration>>) {
        let mut counter = None;
        let mut waits = Vec::new();
        for second in seconds {
            let admission = policy.admit(&[(kind, counter)], T0 + Duration::seconds(*second));
            counter = admission.counters[0].or(counter);
            waits.push(admission.retry_after);
        }
        (counter, waits)
    }

    #[test]
    fn an_email_gets_its_attempts_then_a_lock_that_ends() {
        let policy = policy();
        let (counter, waits) = run(&policy, EMAIL, &[0, 1, 2, 3, 30, 60, 63]);
        assert_eq!(waits[..3], [None, None, None], "three attempts are admitted");
        assert_eq!(
            waits[3],
            Some(Duration::minutes(1)),
            "the fourth starts a one-minute lock"
        );
        assert_eq!(
            waits[4],
            Some(Duration::seconds(33)),
            "a refusal does not prolong the lock"
        );
        assert_eq!(waits[5], Some(Duration::seconds(3)));
        assert_eq!(waits[6], None, "after the lock, one attempt is admitted again");
        assert_eq!(counter.map(|c| (c.attempts, c.lockouts)), Some((3, 1)));
    }

    #[test]
    fn each_further_lock_doubles_up_to_the_longest() {
        let policy = policy();
        let locks: Vec<Duration> = (0..6).map(|n| policy.lock_for(n)).collect();
        assert_eq!(
            locks,
            [1, 2, 4, 8, 15, 15].map(Duration::minutes),
            "one minute doubling, at most 15"
        );
        assert_eq!(policy.lock_for(u32::MAX), Duration::minutes(15));
        let (_, waits) = run(&policy, EMAIL, &[0, 1, 2, 3, 63, 64, 184, 185]);
        assert_eq!(waits[4], None, "one attempt after the lock");
        assert_eq!(waits[5], Some(Duration::minutes(2)), "the next locks twice as long");
        assert_eq!(waits[6], None);
        assert_eq!(waits[7], Some(Duration::minutes(4)));
    }

    #[test]
    fn a_new_window_starts_the_count_again() {
        let policy = policy();
        let quarter = 15 * 60;
        let (_, waits) = run(&policy, EMAIL, &[0, 1, 2, quarter, quarter + 1, quarter + 2]);
        assert!(waits.iter().all(Option::is_none), "{waits:?}");
        let (_, waits) = run(&policy, EMAIL, &[0, 1, 2, 3, 3 + quarter, 4 + quarter, 5 + quarter]);
        assert!(
            waits[4..].iter().all(Option::is_none),
            "a window after the lock: {waits:?}"
        );
    }

    #[test]
    fn a_refusal_by_one_counter_costs_the_other_nothing() {
        let policy = policy();
        let locked = AttemptCounter {
            locked_until: Some(T0 + Duration::seconds(10)),
            ..AttemptCounter::fresh(T0)
        };
        let address = AttemptCounter {
            attempts: 2,
            ..AttemptCounter::fresh(T0)
        };
        let admission = policy.admit(&[(EMAIL, Some(locked)), (ADDRESS, Some(address))], T0);
        assert_eq!(admission.retry_after, Some(Duration::seconds(10)));
        assert_eq!(admission.counters, [Some(locked), None]);
        let admission = policy.admit(&[(EMAIL, None), (ADDRESS, Some(address))], T0);
        assert_eq!(admission.retry_after, None);
        let attempts: Vec<u32> = admission.counters.iter().flatten().map(|c| c.attempts).collect();
        assert_eq!(attempts, [1, 3], "admitted, both count it");
    }

    #[test]
    fn a_success_forgets_the_email_and_gives_the_address_its_attempt_back() {
        let policy = policy();
        let counter = AttemptCounter {
            attempts: 2,
            lockouts: 3,
            ..AttemptCounter::fresh(T0)
        };
        let later = T0 + Duration::seconds(5);
        assert_eq!(
            policy.succeeded(EMAIL, Some(counter), later),
            AttemptCounter::fresh(later)
        );
        let address = policy.succeeded(ADDRESS, Some(counter), later);
        assert_eq!((address.attempts, address.lockouts), (1, 3));
    }

    #[test]
    fn a_quiet_counter_is_forgotten_with_its_back_off() {
        let policy = policy();
        let (counter, _) = run(&policy, EMAIL, &[0, 1, 2, 3]);
        let day_later = T0 + Duration::days(1) + Duration::seconds(3);
        let admission = policy.admit(&[(EMAIL, counter)], day_later);
        assert_eq!(admission.counters[0].map(|c| (c.attempts, c.lockouts)), Some((1, 0)));
    }

    #[test]
    fn keys_normalise_emails_and_group_ipv6_by_network() {
        assert_eq!(
            ThrottleKey::email(" Ana@Example.com"),
            ThrottleKey::email("ana@example.com")
        );
        assert_ne!(
            ThrottleKey::email("ana@example.com"),
            ThrottleKey::email("bob@example.com")
        );
        let host = |last: u16| IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 1, 2, 0, 0, 0, last));
        assert_eq!(ThrottleKey::address(host(1)), ThrottleKey::address(host(2)));
        let other_network = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 1, 3, 0, 0, 0, 1));
        assert_ne!(ThrottleKey::address(host(1)), ThrottleKey::address(other_network));
        let mapped: IpAddr = "::ffff:203.0.113.9".parse().expect("address");
        let v4: IpAddr = "203.0.113.9".parse().expect("address");
        assert_eq!(ThrottleKey::address(mapped), ThrottleKey::address(v4));
        assert_ne!(
            ThrottleKey::email("203.0.113.9"),
            ThrottleKey::address(v4),
            "kinds never collide"
        );
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_secs(Duration::milliseconds(1)), 1);
        assert_eq!(retry_after_secs(Duration::seconds(60)), 60);
        assert_eq!(retry_after_secs(Duration::milliseconds(60_001)), 61);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
    }

    #[test]
    fn policies_that_never_admit_or_never_lock_are_refused() {
        assert_eq!(LoginThrottle::default().validate(), Ok(()));
        for bad in [
            LoginThrottle {
                email_attempts: 0,
                ..LoginThrottle::default()
            },
            LoginThrottle {
                lock: Duration::ZERO,
                ..LoginThrottle::default()
            },
            LoginThrottle {
                max_lock: Duration::seconds(1),
                ..LoginThrottle::default()
            },
            LoginThrottle {
                forget_after: Duration::minutes(1),
                ..LoginThrottle::default()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    proptest! {
        /// Whatever the timing: a counter never holds more than its limit; a refusal names
        /// a positive wait no longer than the longest lock; nothing is admitted before that
        /// wait is over, and the first attempt after it is admitted (`Retry-After` is honest).
        #[test]
        fn retry_after_is_honest(gaps in proptest::collection::vec(0_i64..400, 1..60), address in any::<bool>()) {
            let policy = policy();
            let kind = if address { ADDRESS } else { EMAIL };
            let mut counter = None;
            let mut now = T0;
            let mut refused_until: Option<OffsetDateTime> = None;
            for gap in gaps {
                now += Duration::seconds(gap);
                let admission = policy.admit(&[(kind, counter)], now);
                counter = admission.counters[0].or(counter);
                prop_assert!(counter.is_some_and(|c| c.attempts <= policy.limit(kind)));
                if let Some(until) = refused_until.filter(|until| now >= *until) {
                    prop_assert_eq!(admission.retry_after, None, "refused again at {} after {}", now, until);
                    refused_until = None;
                }
                match admission.retry_after {
                    None => prop_assert!(refused_until.is_none(), "admitted before the announced time"),
                    Some(wait) => {
                        prop_assert!(wait.is_positive() && wait <= policy.max_lock);
                        refused_until = Some(now + wait);
                    }
                }
            }
        }
    }
}
