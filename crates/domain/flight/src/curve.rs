//! The flight curve: `m(t) = floor(100 · e^(0.00006 · t))` hundredths at `t` whole
//! milliseconds after take-off (2.00× at about 11.55 s). The exponential is the
//! standard library's `f64::exp`, what every common language offers, so an operator
//! re-derives every value with its own; the crash instant is then found by evaluating the
//! curve itself, so the instant and the curve can never disagree by a millisecond.

use crate::multiplier::Multiplier;

/// The curve's growth rate per millisecond.
pub const GROWTH_PER_MS: f64 = 0.00006;

/// The multiplier `elapsed_ms` milliseconds after take-off. Past about 11 minutes the
/// value exceeds what hundredths in a `u64` hold and stays at the largest one.
pub fn multiplier_at(elapsed_ms: u64) -> Multiplier {
    // Milliseconds are exact in an f64 up to 2^53, far past any flight.
    let value = (100.0 * (GROWTH_PER_MS * elapsed_ms as f64).exp()).floor();
    // `as` saturates: an infinite or too large value becomes u64::MAX.
    Multiplier::from_hundredths(value as u64)
}

/// The first whole millisecond after take-off at which the curve reaches `target`
/// (0 for 1.00× or below). Estimated from the logarithm, then stepped to the exact
/// millisecond by evaluating [`multiplier_at`].
pub fn first_ms_at(target: Multiplier) -> u64 {
    if multiplier_at(0) >= target {
        return 0;
    }
    let estimate = ((target.hundredths() as f64 / 100.0).ln() / GROWTH_PER_MS).ceil();
    // `as` saturates; the estimate is within a millisecond or two of the answer.
    let mut t = estimate.max(1.0) as u64;
    while t > 1 && multiplier_at(t - 1) >= target {
        t -= 1;
    }
    while multiplier_at(t) < target {
        t += 1;
    }
    t
}

/// The crash instant of a flight crashing at `crash`, in milliseconds after take-off:
/// the first millisecond at which the curve reaches it (take-off itself for 1.00×).
pub fn crash_instant_ms(crash: Multiplier) -> u64 {
    first_ms_at(crash)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn m(hundredths: u64) -> Multiplier {
        Multiplier::from_hundredths(hundredths)
    }

    #[test]
    fn the_published_curve_values() {
        assert_eq!(multiplier_at(0), Multiplier::ONE);
        assert_eq!(multiplier_at(1000), m(106));
        assert_eq!(multiplier_at(11552), m(199));
        assert_eq!(multiplier_at(30000), m(604));
        assert_eq!(multiplier_at(60000), m(3659));
    }

    #[test]
    fn the_published_crash_instants() {
        assert_eq!(crash_instant_ms(m(346)), 20688);
        assert_eq!(crash_instant_ms(m(152)), 6979);
        assert_eq!(crash_instant_ms(m(101)), 166);
        assert_eq!(crash_instant_ms(Multiplier::ONE), 0);
        assert_eq!(crash_instant_ms(m(0)), 0);
    }

    #[test]
    fn two_is_reached_at_about_eleven_and_a_half_seconds() {
        assert_eq!(multiplier_at(11553), m(200));
        assert_eq!(first_ms_at(m(200)), 11553);
    }

    #[test]
    fn the_curve_saturates_instead_of_wrapping() {
        assert_eq!(multiplier_at(u64::MAX), m(u64::MAX));
        assert_eq!(multiplier_at(u64::MAX), multiplier_at(10_000_000));
        let top = m(99 << 52);
        let t = first_ms_at(top);
        assert!(multiplier_at(t) >= top && multiplier_at(t - 1) < top);
    }

    proptest! {
        #[test]
        fn the_first_millisecond_is_exact(hundredths in 101u64..2_000_000) {
            let target = m(hundredths);
            let t = first_ms_at(target);
            prop_assert!(t >= 1);
            prop_assert!(multiplier_at(t) >= target);
            prop_assert!(multiplier_at(t - 1) < target);
        }

        #[test]
        fn the_curve_never_falls(t in 0u64..1_000_000, step in 0u64..10_000) {
            prop_assert!(multiplier_at(t) <= multiplier_at(t + step));
        }
    }
}
