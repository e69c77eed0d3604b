//! How the live feed shows another player's payout: never the amount, only the coarse
//! band it falls in, so the feed cannot be used to follow a player's habitual stake
//! from flight to flight. Bands follow the 1-2-5 series (1, 2, 5, 10, 20, 50, 100, …
//! rupiah): a payout is shown as the highest step not above it.

use crate::rupiah::Rupiah;

/// The lower bound of the 1-2-5 band `payout` falls in (zero for zero): the payout is at
/// least this and below the next step of the series.
pub fn payout_band(payout: Rupiah) -> Rupiah {
    let amount = payout.get();
    if amount < 1 {
        return Rupiah::ZERO;
    }
    let mut decade: i64 = 1;
    while decade <= amount / 10 {
        decade *= 10;
    }
    let step = [5, 2, 1]
        .into_iter()
        .map(|factor| factor * decade)
        .find(|step| *step <= amount)
        .unwrap_or(decade);
    Rupiah::new(step).unwrap_or(Rupiah::ZERO)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn idr(rupiah: i64) -> Rupiah {
        Rupiah::new(rupiah).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Whether `value` is 1, 2 or 5 times a power of ten.
    fn on_the_series(value: i64) -> bool {
        let mut rest = value;
        while rest >= 10 && rest % 10 == 0 {
            rest /= 10;
        }
        matches!(rest, 1 | 2 | 5)
    }

    #[test]
    fn shows_the_step_at_or_below_the_payout() {
        assert_eq!(payout_band(idr(0)), idr(0));
        assert_eq!(payout_band(idr(1)), idr(1));
        assert_eq!(payout_band(idr(9)), idr(5));
        assert_eq!(payout_band(idr(10)), idr(10));
        assert_eq!(payout_band(idr(34_600)), idr(20_000));
        assert_eq!(payout_band(idr(1_518)), idr(1_000));
        assert_eq!(payout_band(idr(50_000)), idr(50_000));
        assert_eq!(payout_band(idr(99_999)), idr(50_000));
        assert_eq!(payout_band(idr(i64::MAX)), idr(5_000_000_000_000_000_000));
    }

    proptest! {
        #[test]
        fn is_a_step_of_the_series_at_most_the_payout(amount in 1..=i64::MAX) {
            let band = payout_band(idr(amount)).get();
            prop_assert!(band <= amount);
            prop_assert!(on_the_series(band));
            // The next step (at most two and a half times the band) is above the payout.
            prop_assert!(i128::from(band) * 5 / 2 > i128::from(amount));
        }

        #[test]
        fn is_monotone(a in 0..=i64::MAX, b in 0..=i64::MAX) {
            let (low, high) = (a.min(b), a.max(b));
            prop_assert!(payout_band(idr(low)) <= payout_band(idr(high)));
        }
    }
}
