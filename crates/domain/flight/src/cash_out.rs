//! Who wins, decided by the server's clock alone. An auto cash-out at target `a` wins iff
//! `a ≤ crash` and pays at `a`, at the first millisecond the curve reaches it. A manual
//! cash-out wins iff the server decides it before the crash instant and pays at the
//! curve's value at the millisecond it is decided; before the curve reaches 1.01× there
//! is nothing to win yet and it is refused as too early.

use crate::curve::{crash_instant_ms, first_ms_at, multiplier_at};
use crate::multiplier::Multiplier;

/// Whether an auto cash-out at `target` wins on a flight crashing at `crash`.
pub fn auto_cash_out_wins(target: Multiplier, crash: Multiplier) -> bool {
    target <= crash
}

/// The millisecond after take-off at which an auto cash-out at `target` happens on a
/// flight crashing at `crash`, or `None` when the flight crashes first.
pub fn auto_cash_out_ms(target: Multiplier, crash: Multiplier) -> Option<u64> {
    auto_cash_out_wins(target, crash).then(|| first_ms_at(target))
}

/// The decision on a player's cash-out request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManualCashOut {
    /// Won at this multiplier (always below the crash point).
    Won(Multiplier),
    /// The curve is still below 1.01×: nothing is won yet; the ticket keeps flying.
    TooEarly,
    /// The request came at or after the crash instant: the ticket is lost.
    Crashed,
    /// The ticket's auto cash-out already happened at this target; it is paid at it.
    AlreadyAuto(Multiplier),
}

/// Decides a manual cash-out the server handles `elapsed_ms` after take-off, on a flight
/// crashing at `crash`, for a ticket with an optional auto cash-out target.
pub fn decide_manual_cash_out(elapsed_ms: u64, crash: Multiplier, auto_target: Option<Multiplier>) -> ManualCashOut {
    if let Some(target) = auto_target
        && auto_cash_out_ms(target, crash).is_some_and(|at| at <= elapsed_ms)
    {
        return ManualCashOut::AlreadyAuto(target);
    }
    if elapsed_ms >= crash_instant_ms(crash) {
        return ManualCashOut::Crashed;
    }
    let now = multiplier_at(elapsed_ms);
    if now < Multiplier::MIN_CASH_OUT {
        ManualCashOut::TooEarly
    } else {
        ManualCashOut::Won(now)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn m(hundredths: u64) -> Multiplier {
        Multiplier::from_hundredths(hundredths)
    }

    #[test]
    fn auto_wins_up_to_the_crash_point_included() {
        assert!(auto_cash_out_wins(m(346), m(346)));
        assert!(auto_cash_out_wins(m(200), m(346)));
        assert!(!auto_cash_out_wins(m(347), m(346)));
        assert!(!auto_cash_out_wins(Multiplier::MIN_CASH_OUT, Multiplier::ONE));
        assert_eq!(auto_cash_out_ms(m(200), m(346)), Some(11553));
        assert_eq!(auto_cash_out_ms(m(347), m(346)), None);
    }

    #[test]
    fn manual_on_the_flight_crashing_at_3_46() {
        let crash = m(346);
        assert_eq!(decide_manual_cash_out(0, crash, None), ManualCashOut::TooEarly);
        assert_eq!(decide_manual_cash_out(165, crash, None), ManualCashOut::TooEarly);
        assert_eq!(decide_manual_cash_out(166, crash, None), ManualCashOut::Won(m(101)));
        assert_eq!(decide_manual_cash_out(11553, crash, None), ManualCashOut::Won(m(200)));
        assert_eq!(decide_manual_cash_out(20687, crash, None), ManualCashOut::Won(m(345)));
        assert_eq!(decide_manual_cash_out(20688, crash, None), ManualCashOut::Crashed);
        assert_eq!(decide_manual_cash_out(99_999, crash, None), ManualCashOut::Crashed);
    }

    #[test]
    fn an_auto_cash_out_that_happened_first_wins_whatever_comes_later() {
        let crash = m(346);
        let auto = Some(m(200));
        assert_eq!(decide_manual_cash_out(11552, crash, auto), ManualCashOut::Won(m(199)));
        assert_eq!(
            decide_manual_cash_out(11553, crash, auto),
            ManualCashOut::AlreadyAuto(m(200))
        );
        assert_eq!(
            decide_manual_cash_out(20688, crash, auto),
            ManualCashOut::AlreadyAuto(m(200))
        );
        let at_the_crash = Some(crash);
        assert_eq!(
            decide_manual_cash_out(20688, crash, at_the_crash),
            ManualCashOut::AlreadyAuto(crash)
        );
        let too_high = Some(m(347));
        assert_eq!(
            decide_manual_cash_out(20687, crash, too_high),
            ManualCashOut::Won(m(345))
        );
        assert_eq!(decide_manual_cash_out(20688, crash, too_high), ManualCashOut::Crashed);
    }

    #[test]
    fn a_flight_crashing_at_one_loses_every_manual_cash_out() {
        assert_eq!(decide_manual_cash_out(0, Multiplier::ONE, None), ManualCashOut::Crashed);
        assert_eq!(
            decide_manual_cash_out(500, Multiplier::ONE, Some(Multiplier::MIN_CASH_OUT)),
            ManualCashOut::Crashed
        );
    }

    fn crash_points() -> impl Strategy<Value = Multiplier> {
        prop_oneof![Just(100u64), 100u64..1_000, 100u64..1_000_000].prop_map(m)
    }

    fn auto_targets() -> impl Strategy<Value = Option<Multiplier>> {
        proptest::option::of((101u64..1_000_000).prop_map(m))
    }

    proptest! {
        #[test]
        fn nothing_manual_wins_at_or_after_the_crash_instant(
            crash in crash_points(), auto in auto_targets(), late in 0u64..1_000_000,
        ) {
            let elapsed = crash_instant_ms(crash) + late;
            prop_assert!(!matches!(decide_manual_cash_out(elapsed, crash, auto), ManualCashOut::Won(_)));
        }

        #[test]
        fn a_win_is_always_below_the_crash_point(crash in crash_points(), auto in auto_targets(), elapsed in 0u64..400_000) {
            if let ManualCashOut::Won(at) = decide_manual_cash_out(elapsed, crash, auto) {
                prop_assert!(at < crash);
                prop_assert!(at >= Multiplier::MIN_CASH_OUT);
                prop_assert!(auto.is_none_or(|target| at < target));
            }
        }

        #[test]
        fn decisions_are_monotone_in_time(
            crash in crash_points(), auto in auto_targets(), t in 0u64..400_000, later in 0u64..400_000,
        ) {
            let before = decide_manual_cash_out(t, crash, auto);
            let after = decide_manual_cash_out(t + later, crash, auto);
            match before {
                ManualCashOut::Crashed => prop_assert_eq!(after, ManualCashOut::Crashed),
                ManualCashOut::AlreadyAuto(target) => prop_assert_eq!(after, ManualCashOut::AlreadyAuto(target)),
                ManualCashOut::Won(at) => {
                    let still_fine = match after {
                        ManualCashOut::Won(later_at) => later_at >= at,
                        ManualCashOut::TooEarly => false,
                        ManualCashOut::Crashed | ManualCashOut::AlreadyAuto(_) => true,
                    };
                    prop_assert!(still_fine, "{before:?} then {after:?}");
                }
                ManualCashOut::TooEarly => {}
            }
        }

        #[test]
        fn an_auto_cash_out_pays_at_its_target_iff_the_crash_does_not_come_first(
            crash in crash_points(), target in 101u64..1_000_000,
        ) {
            let target = m(target);
            let won = matches!(
                decide_manual_cash_out(crash_instant_ms(crash), crash, Some(target)),
                ManualCashOut::AlreadyAuto(_)
            );
            prop_assert_eq!(won, auto_cash_out_wins(target, crash));
        }
    }
}
