//! A delivery (one event to one endpoint) and what happens after each of its attempts.
//! This is where the retry schedule, the attempt classification and the disable rule
//! meet: [`plan_after_attempt`] is the one place that decides a delivery's next step and
//! its endpoint's health.
//!
//! | status | meaning |
//! |---|---|
//! | `pending` | waiting for its next attempt (`nextAttemptAt`) |
//! | `delivered` | a 2xx arrived; no more attempts unless replayed |
//! | `failed` | every scheduled attempt failed, or the endpoint answered 410 or was disabled by this attempt |
//! | `cancelled` | the endpoint was disabled or deleted before the delivery finished |
//!
//! Replays are manual attempts: a success makes the delivery `delivered`; a failure
//! changes nothing about the delivery (a pending one keeps its schedule), though it still
//! counts towards the endpoint's failure streak and a 410 still disables the endpoint.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

use crate::outcome::{AttemptOutcome, AttemptResult, classify_attempt, should_disable};
use crate::retry::{delay_with_retry_after, next_attempt_delay};

macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident, $error:literal { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$(Self::$variant),+];

            /// The name on the wire and in storage.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = UnknownName;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|value| value.as_str() == text)
                    .ok_or_else(|| UnknownName { kind: $error, name: text.to_owned() })
            }
        }
    };
}

/// A status, trigger or reason name this version does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{name}`")]
pub struct UnknownName {
    /// What was being named.
    pub kind: &'static str,
    /// The name given.
    pub name: String,
}

wire_enum!(
    /// Where a delivery stands (table above).
    DeliveryStatus, "delivery status" {
        /// Waiting for its next attempt.
        Pending = "pending",
        /// A 2xx arrived.
        Delivered = "delivered",
        /// No attempt succeeded and none is scheduled.
        Failed = "failed",
        /// Ended because its endpoint was disabled or deleted.
        Cancelled = "cancelled",
    }
);

wire_enum!(
    /// What started an attempt.
    AttemptTrigger, "attempt trigger" {
        /// The retry schedule (the first attempt included).
        Scheduled = "scheduled",
        /// An operator's replay.
        Manual = "manual",
    }
);

wire_enum!(
    /// Why an endpoint is disabled.
    DisableReason, "disable reason" {
        /// It failed without a single success for days (`DISABLE_AFTER_FAILING_SECS`).
        Failing = "failing",
        /// It answered 410 Gone.
        Gone = "gone",
        /// The operator disabled it.
        Operator = "operator",
    }
);

/// What is known after an attempt, in unix seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptFacts {
    /// What the transport saw.
    pub result: AttemptResult,
    /// The answer's `Retry-After`, in seconds, when it had one.
    pub retry_after_secs: Option<u64>,
    /// Schedule or replay.
    pub trigger: AttemptTrigger,
    /// Scheduled attempts made so far, this one included when it is scheduled.
    pub scheduled_attempts: u32,
    /// Start of the endpoint's current failure streak, if it is failing.
    pub failing_since_secs: Option<i64>,
    /// When the attempt ended.
    pub now_secs: i64,
    /// A uniformly random number for the retry jitter.
    pub jitter: u32,
}

/// What the delivery does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStep {
    /// It is `delivered`.
    Delivered,
    /// It stays `pending`; the next attempt is due this many seconds from now.
    RetryIn(u64),
    /// It is `failed`.
    GiveUp,
    /// A failed replay: the delivery stays as it was.
    Unchanged,
}

/// The delivery's next step and its endpoint's health after one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptPlan {
    /// The delivery's next step.
    pub step: DeliveryStep,
    /// The endpoint's failure streak after the attempt: `None` after a success, else the
    /// first failure's time (this attempt's if the streak starts now).
    pub failing_since_secs: Option<i64>,
    /// Disable the endpoint now, for this reason (its other deliveries are cancelled).
    pub disable: Option<DisableReason>,
}

/// Decides what follows an attempt: 2xx delivers and ends the endpoint's failure streak;
/// 410 fails the delivery and disables the endpoint; any other failure starts or extends
/// the streak, disables the endpoint once the streak is old enough, and otherwise
/// schedules the next attempt (a scheduled one only) per the retry schedule and
/// `Retry-After`, giving up after the last.
pub fn plan_after_attempt(facts: AttemptFacts) -> AttemptPlan {
    let streak = facts.failing_since_secs.unwrap_or(facts.now_secs);
    match classify_attempt(facts.result) {
        AttemptOutcome::Delivered => AttemptPlan {
            step: DeliveryStep::Delivered,
            failing_since_secs: None,
            disable: None,
        },
        AttemptOutcome::DisableEndpoint => AttemptPlan {
            step: DeliveryStep::GiveUp,
            failing_since_secs: Some(streak),
            disable: Some(DisableReason::Gone),
        },
        AttemptOutcome::Retry => {
            let disable = should_disable(streak, facts.now_secs).then_some(DisableReason::Failing);
            let step = match (disable, facts.trigger) {
                (Some(_), _) => DeliveryStep::GiveUp,
                (None, AttemptTrigger::Manual) => DeliveryStep::Unchanged,
                (None, AttemptTrigger::Scheduled) => next_attempt_delay(facts.scheduled_attempts, facts.jitter)
                    .map(|delay| DeliveryStep::RetryIn(delay_with_retry_after(delay, facts.retry_after_secs)))
                    .unwrap_or(DeliveryStep::GiveUp),
            };
            AttemptPlan {
                step,
                failing_since_secs: Some(streak),
                disable,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::DISABLE_AFTER_FAILING_SECS;
    use crate::retry::{MAX_ATTEMPTS, MAX_RETRY_AFTER_SECS};

    const NOW: i64 = 1_795_000_000;
    const HALF: u32 = 1 << 31;

    fn facts(result: AttemptResult) -> AttemptFacts {
        AttemptFacts {
            result,
            retry_after_secs: None,
            trigger: AttemptTrigger::Scheduled,
            scheduled_attempts: 1,
            failing_since_secs: None,
            now_secs: NOW,
            jitter: HALF,
        }
    }

    #[test]
    fn success_delivers_and_ends_the_streak() {
        for trigger in AttemptTrigger::ALL {
            let plan = plan_after_attempt(AttemptFacts {
                trigger: *trigger,
                failing_since_secs: Some(NOW - 100),
                ..facts(AttemptResult::Status(204))
            });
            assert_eq!(
                plan,
                AttemptPlan {
                    step: DeliveryStep::Delivered,
                    failing_since_secs: None,
                    disable: None
                }
            );
        }
    }

    #[test]
    fn failures_follow_the_schedule_then_give_up() {
        let first = plan_after_attempt(facts(AttemptResult::Status(500)));
        assert_eq!(first.step, DeliveryStep::RetryIn(5));
        assert_eq!(first.failing_since_secs, Some(NOW));
        assert_eq!(first.disable, None);
        let later = plan_after_attempt(AttemptFacts {
            scheduled_attempts: 3,
            failing_since_secs: Some(NOW - 40),
            ..facts(AttemptResult::Timeout)
        });
        assert_eq!(later.step, DeliveryStep::RetryIn(120));
        assert_eq!(later.failing_since_secs, Some(NOW - 40));
        let last = plan_after_attempt(AttemptFacts {
            scheduled_attempts: MAX_ATTEMPTS,
            ..facts(AttemptResult::ConnectionError)
        });
        assert_eq!(last.step, DeliveryStep::GiveUp);
        assert_eq!(last.disable, None);
    }

    #[test]
    fn retry_after_lengthens_within_bounds() {
        let asked = |secs| {
            plan_after_attempt(AttemptFacts {
                retry_after_secs: Some(secs),
                ..facts(AttemptResult::Status(429))
            })
            .step
        };
        assert_eq!(asked(0), DeliveryStep::RetryIn(5));
        assert_eq!(asked(90), DeliveryStep::RetryIn(90));
        assert_eq!(
            asked(10 * MAX_RETRY_AFTER_SECS),
            DeliveryStep::RetryIn(MAX_RETRY_AFTER_SECS)
        );
    }

    #[test]
    fn gone_fails_and_disables_whatever_the_trigger() {
        for trigger in AttemptTrigger::ALL {
            let plan = plan_after_attempt(AttemptFacts {
                trigger: *trigger,
                ..facts(AttemptResult::Status(410))
            });
            assert_eq!(plan.step, DeliveryStep::GiveUp);
            assert_eq!(plan.disable, Some(DisableReason::Gone));
        }
    }

    #[test]
    fn days_of_failure_disable_the_endpoint() {
        let since = NOW - DISABLE_AFTER_FAILING_SECS;
        for trigger in AttemptTrigger::ALL {
            let plan = plan_after_attempt(AttemptFacts {
                trigger: *trigger,
                failing_since_secs: Some(since),
                ..facts(AttemptResult::Status(503))
            });
            assert_eq!(plan.step, DeliveryStep::GiveUp);
            assert_eq!(plan.disable, Some(DisableReason::Failing));
            assert_eq!(plan.failing_since_secs, Some(since));
        }
        let younger = plan_after_attempt(AttemptFacts {
            failing_since_secs: Some(since + 1),
            ..facts(AttemptResult::Status(503))
        });
        assert_eq!(younger.disable, None);
    }

    #[test]
    fn a_failed_replay_leaves_the_delivery_alone() {
        let plan = plan_after_attempt(AttemptFacts {
            trigger: AttemptTrigger::Manual,
            scheduled_attempts: MAX_ATTEMPTS,
            ..facts(AttemptResult::Status(500))
        });
        assert_eq!(plan.step, DeliveryStep::Unchanged);
        assert_eq!(plan.failing_since_secs, Some(NOW));
    }

    #[test]
    fn names_round_trip() {
        for status in DeliveryStatus::ALL {
            assert_eq!(status.as_str().parse::<DeliveryStatus>().as_ref(), Ok(status));
        }
        for reason in DisableReason::ALL {
            assert_eq!(reason.as_str().parse::<DisableReason>().as_ref(), Ok(reason));
        }
        assert_eq!(
            "sent".parse::<DeliveryStatus>(),
            Err(UnknownName {
                kind: "delivery status",
                name: "sent".into()
            })
        );
        assert_eq!("manual".parse::<AttemptTrigger>(), Ok(AttemptTrigger::Manual));
    }
}
