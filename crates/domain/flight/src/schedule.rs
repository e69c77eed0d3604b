//! A flight's ideal timeline: boarding opens, take-off one boarding length later, the
//! crash at the crash instant of its point, the next boarding one pause after the crash.
//! Times are the caller's (the driver's clock); these functions only compute.

use time::{Duration, OffsetDateTime};

use crate::curve::crash_instant_ms;
use crate::multiplier::Multiplier;
use crate::phase::FlightPhase;
use crate::timing::FlightTiming;

/// When a flight boards, takes off and crashes. Built by [`FlightPlan::new`] or
/// [`FlightPlan::resumed`], so `crash_at` is always `take_off_at` plus the crash instant
/// of `crash`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlightPlan {
    /// When boarding opened.
    pub boarding_at: OffsetDateTime,
    /// When the flight takes off (the multiplier's 0 ms).
    pub take_off_at: OffsetDateTime,
    /// When the flight crashes.
    pub crash_at: OffsetDateTime,
    /// Where it crashes.
    pub crash: Multiplier,
}

/// `at` moved by `ms` milliseconds (saturating at the end of time, never panicking).
fn after_ms(at: OffsetDateTime, ms: u64) -> OffsetDateTime {
    at.saturating_add(Duration::milliseconds(i64::try_from(ms).unwrap_or(i64::MAX)))
}

impl FlightPlan {
    /// The plan of a flight whose boarding opens at `boarding_at`.
    pub fn new(boarding_at: OffsetDateTime, timing: FlightTiming, crash: Multiplier) -> Self {
        Self::resumed(boarding_at, boarding_at.saturating_add(timing.boarding()), crash)
    }

    /// The plan of a flight that took off at a recorded instant (a restart resumes it
    /// exactly, whatever the boarding length is configured to now).
    pub fn resumed(boarding_at: OffsetDateTime, take_off_at: OffsetDateTime, crash: Multiplier) -> Self {
        Self {
            boarding_at,
            take_off_at,
            crash_at: after_ms(take_off_at, crash_instant_ms(crash)),
            crash,
        }
    }
}

/// The phase the plan says the flight is in at `now` (never `Cancelled`: cancelling is a
/// decision, not a point of the timeline). Before take-off it is boarding; from the crash
/// instant on, crashed (at take-off itself for a 1.00× crash).
pub fn phase_at(plan: &FlightPlan, now: OffsetDateTime) -> FlightPhase {
    if now < plan.take_off_at {
        FlightPhase::Boarding
    } else if now < plan.crash_at {
        FlightPhase::InFlight
    } else {
        FlightPhase::Crashed
    }
}

/// Whole milliseconds since take-off at `now` (rounded down), or `None` before take-off:
/// what the curve and every cash-out decision are evaluated at.
pub fn elapsed_ms(plan: &FlightPlan, now: OffsetDateTime) -> Option<u64> {
    let since = now - plan.take_off_at;
    if since.is_negative() {
        return None;
    }
    Some(u64::try_from(since.whole_milliseconds()).unwrap_or(u64::MAX))
}

/// When the next flight boards after one crashed at `crashed_at`.
pub fn next_boarding_at(crashed_at: OffsetDateTime, timing: FlightTiming) -> OffsetDateTime {
    crashed_at.saturating_add(timing.pause())
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const BOARDING: OffsetDateTime = datetime!(2026-11-24 08:00:00 UTC);

    fn plan(crash: u64) -> FlightPlan {
        FlightPlan::new(BOARDING, FlightTiming::default(), Multiplier::from_hundredths(crash))
    }

    #[test]
    fn take_off_after_boarding_crash_at_the_crash_instant() {
        let plan = plan(346);
        assert_eq!(plan.take_off_at, datetime!(2026-11-24 08:00:05 UTC));
        assert_eq!(plan.crash_at, datetime!(2026-11-24 08:00:25.688 UTC));
        assert_eq!(
            next_boarding_at(plan.crash_at, FlightTiming::default()),
            datetime!(2026-11-24 08:00:28.688 UTC)
        );
    }

    #[test]
    fn phases_along_the_timeline() {
        let plan = plan(346);
        let at = |ms: i64| BOARDING + Duration::milliseconds(ms);
        assert_eq!(phase_at(&plan, at(-1)), FlightPhase::Boarding);
        assert_eq!(phase_at(&plan, at(4_999)), FlightPhase::Boarding);
        assert_eq!(phase_at(&plan, at(5_000)), FlightPhase::InFlight);
        assert_eq!(phase_at(&plan, at(25_687)), FlightPhase::InFlight);
        assert_eq!(phase_at(&plan, at(25_688)), FlightPhase::Crashed);
    }

    #[test]
    fn a_crash_at_one_crashes_at_take_off() {
        let plan = plan(100);
        assert_eq!(plan.crash_at, plan.take_off_at);
        assert_eq!(phase_at(&plan, plan.take_off_at), FlightPhase::Crashed);
    }

    #[test]
    fn elapsed_is_whole_milliseconds_since_take_off() {
        let plan = plan(346);
        let at = |nanos: i64| plan.take_off_at + Duration::nanoseconds(nanos);
        assert_eq!(elapsed_ms(&plan, at(-1)), None);
        assert_eq!(elapsed_ms(&plan, at(0)), Some(0));
        assert_eq!(elapsed_ms(&plan, at(999_999)), Some(0));
        assert_eq!(elapsed_ms(&plan, at(20_688_000_000)), Some(20_688));
    }

    #[test]
    fn a_resumed_plan_keeps_its_recorded_take_off() {
        let take_off = datetime!(2026-11-24 08:00:09 UTC);
        let resumed = FlightPlan::resumed(BOARDING, take_off, Multiplier::from_hundredths(152));
        assert_eq!(resumed.crash_at, datetime!(2026-11-24 08:00:15.979 UTC));
    }

    #[test]
    fn the_end_of_time_saturates() {
        let end = time::PrimitiveDateTime::MAX.assume_utc();
        let plan = FlightPlan::new(end, FlightTiming::default(), Multiplier::from_hundredths(41812));
        assert_eq!((plan.take_off_at, plan.crash_at), (end, end));
    }
}
