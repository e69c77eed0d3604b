//! A delivery (one event to one endpoint) and what happens after each of its attempts.
//! This is where the retry schedule, the attempt classification and the disable rule
//! meet: [`plan_after_attempt`] is the one place that decides a delivery's next step and
//! its endpoint's health.
//!
//! | status | meaning |
//! |---|---|
//! | `pending` | waiting for its next attempt (`nextAttemptAt`) |
//! | `delivered` | a 2xx arrived; no more attempts unless replayed |
//! | `dead_letter` | every one of its endpoint's `maxAttempts` failed; never tried again on its own |
//! | `failed` | ended before its attempts ran out: the endpoint answered 410 or was disabled by this attempt, or the event is too large to send |
//! | `cancelled` | the endpoint was disabled or deleted before the delivery finished |
//!
//! Replays are manual attempts of the same event: a success makes the delivery
//! `delivered`; a failure changes nothing about the delivery (a pending one keeps its
//! schedule, a dead letter stays one), though it still counts towards the endpoint's
//! failure streak and a 410 still disables the endpoint.

use opinion_core::wire_enum;
use serde_with::{DeserializeFromStr, SerializeDisplay};

use crate::delivery_settings::MaxAttempts;
use crate::outcome::{AttemptOutcome, AttemptResult, classify_attempt, should_disable};
use crate::retry::{delay_with_retry_after, next_attempt_delay};

wire_enum!(
    /// Where a delivery stands (table above).
    #[derive(SerializeDisplay, DeserializeFromStr)]
    DeliveryStatus, "delivery status" {
        /// Waiting for its next attempt.
        Pending = "pending",
        /// A 2xx arrived.
        Delivered = "delivered",
        /// Every scheduled attempt failed; only a replay sends it again.
        DeadLetter = "dead_letter",
        /// Ended by a 410, by disabling its endpoint, or by an event too large to send.
        Failed = "failed",
        /// Ended because its endpoint was disabled or deleted.
        Cancelled = "cancelled",
    }
);

wire_enum!(
    /// What started an attempt.
    #[derive(SerializeDisplay, DeserializeFromStr)]
    AttemptTrigger, "attempt trigger" {
        /// The retry schedule (the first attempt included).
        Scheduled = "scheduled",
        /// An operator's replay.
        Manual = "manual",
    }
);

wire_enum!(
    /// Why an endpoint is disabled.
    #[derive(SerializeDisplay, DeserializeFromStr)]
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
    /// The endpoint's number of scheduled attempts.
    pub max_attempts: MaxAttempts,
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
    /// It is a `dead_letter`: its endpoint's attempts are exhausted.
    DeadLetter,
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
/// `Retry-After`, until the endpoint's `max_attempts` are exhausted: the delivery is then
/// a dead letter.
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
                (None, AttemptTrigger::Scheduled) => {
                    next_attempt_delay(facts.scheduled_attempts, facts.max_attempts, facts.jitter)
                        .map(|delay| DeliveryStep::RetryIn(delay_with_retry_after(delay, facts.retry_after_secs)))
                        .unwrap_or(DeliveryStep::DeadLetter)
                }
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
    use crate::retry::MAX_RETRY_AFTER_SECS;
    use opinion_core::UnknownName;
    use proptest::prelude::*;

    const NOW: i64 = 1_795_000_000;
    const HALF: u32 = 1 << 31;

    fn facts(result: AttemptResult) -> AttemptFacts {
        AttemptFacts {
            result,
            retry_after_secs: None,
            trigger: AttemptTrigger::Scheduled,
            scheduled_attempts: 1,
            max_attempts: MaxAttempts::default(),
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
            scheduled_attempts: MaxAttempts::default().get(),
            ..facts(AttemptResult::ConnectionError)
        });
        assert_eq!(last.step, DeliveryStep::DeadLetter);
        assert_eq!(last.disable, None);
    }

    #[test]
    fn the_endpoints_own_limit_decides_when_a_delivery_is_a_dead_letter() {
        let at = |made: u32, max: u32| {
            plan_after_attempt(AttemptFacts {
                scheduled_attempts: made,
                max_attempts: MaxAttempts::new(max).unwrap_or_default(),
                ..facts(AttemptResult::Status(500))
            })
            .step
        };
        assert_eq!(at(1, 1), DeliveryStep::DeadLetter);
        assert_eq!(at(1, 2), DeliveryStep::RetryIn(5));
        assert_eq!(at(2, 2), DeliveryStep::DeadLetter);
        assert_eq!(at(5, 6), DeliveryStep::RetryIn(1_800));
        assert_eq!(at(6, 6), DeliveryStep::DeadLetter);
        assert_eq!(at(12, 20), DeliveryStep::RetryIn(86_400));
        assert_eq!(at(20, 20), DeliveryStep::DeadLetter);
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
            scheduled_attempts: MaxAttempts::default().get(),
            ..facts(AttemptResult::Status(500))
        });
        assert_eq!(plan.step, DeliveryStep::Unchanged);
        assert_eq!(plan.failing_since_secs, Some(NOW));
    }

    proptest! {
        /// A replay never schedules anything, whatever its result: a dead letter is never
        /// retried on its own, and a pending delivery keeps its schedule.
        #[test]
        fn a_replay_never_schedules(status in 0u16..1000, made in 0u32..=20, max in 1u32..=20) {
            let plan = plan_after_attempt(AttemptFacts {
                trigger: AttemptTrigger::Manual,
                scheduled_attempts: made,
                max_attempts: MaxAttempts::new(max).unwrap_or_default(),
                ..facts(AttemptResult::Status(status))
            });
            prop_assert!(!matches!(plan.step, DeliveryStep::RetryIn(_) | DeliveryStep::DeadLetter));
        }

        /// A failed scheduled attempt (not 410, no disabling) is retried exactly while the
        /// endpoint's attempts last, and is a dead letter after the last.
        #[test]
        fn scheduled_failures_retry_until_the_limit(made in 1u32..=20, max in 1u32..=20, jitter in any::<u32>()) {
            let plan = plan_after_attempt(AttemptFacts {
                scheduled_attempts: made,
                max_attempts: MaxAttempts::new(max).unwrap_or_default(),
                jitter,
                ..facts(AttemptResult::Status(503))
            });
            if made >= max {
                prop_assert_eq!(plan.step, DeliveryStep::DeadLetter);
            } else {
                prop_assert!(matches!(plan.step, DeliveryStep::RetryIn(_)));
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for status in DeliveryStatus::ALL {
            assert_eq!(status.as_str().parse::<DeliveryStatus>().as_ref(), Ok(status));
        }
        for reason in DisableReason::ALL {
            assert_eq!(reason.as_str().parse::<DisableReason>().as_ref(), Ok(reason));
        }
        assert_eq!("dead_letter".parse::<DeliveryStatus>(), Ok(DeliveryStatus::DeadLetter));
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
