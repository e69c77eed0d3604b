//! What a won ticket pays: `floor(stake · multiplier / 100)` whole rupiah, capped by the
//! terms' maximum payout per ticket. Computed in 128 bits, so no stake and multiplier
//! can overflow it.

use crate::multiplier::Multiplier;
use crate::rupiah::Rupiah;

/// The payout of `stake` cashed out `at` a multiplier, at most `max_payout`.
pub fn payout(stake: Rupiah, at: Multiplier, max_payout: Rupiah) -> Rupiah {
    let uncapped = u128::from(stake.get().unsigned_abs()) * u128::from(at.hundredths()) / 100;
    match i64::try_from(uncapped).ok().and_then(|rupiah| Rupiah::new(rupiah).ok()) {
        Some(amount) if amount < max_payout => amount,
        _ => max_payout,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn idr(rupiah: i64) -> Rupiah {
        Rupiah::new(rupiah).unwrap_or_else(|e| panic!("{e}"))
    }

    fn at(hundredths: u64) -> Multiplier {
        Multiplier::from_hundredths(hundredths)
    }

    #[test]
    fn rounds_down_to_whole_rupiah() {
        let cap = idr(i64::MAX);
        assert_eq!(payout(idr(10_000), at(346), cap), idr(34_600));
        assert_eq!(payout(idr(999), at(152), cap), idr(1518));
        assert_eq!(payout(idr(1), at(199), cap), idr(1));
        assert_eq!(payout(idr(0), at(41812), cap), idr(0));
    }

    #[test]
    fn is_capped_by_the_maximum_payout() {
        assert_eq!(payout(idr(100_000), at(41812), idr(10_000_000)), idr(10_000_000));
        assert_eq!(payout(idr(i64::MAX), at(u64::MAX), idr(5)), idr(5));
        assert_eq!(payout(idr(i64::MAX), at(u64::MAX), idr(i64::MAX)), idr(i64::MAX));
    }

    proptest! {
        #[test]
        fn never_above_the_cap(stake in 0..=i64::MAX, hundredths in any::<u64>(), cap in 0..=i64::MAX) {
            prop_assert!(payout(idr(stake), at(hundredths), idr(cap)) <= idr(cap));
        }

        #[test]
        fn never_below_the_stake_from_one(stake in 0..=i64::MAX, hundredths in 100..=u64::MAX, extra in 0..=i64::MAX) {
            let cap = idr(stake.saturating_add(extra));
            prop_assert!(payout(idr(stake), at(hundredths), cap) >= idr(stake));
        }

        #[test]
        fn monotone_in_the_multiplier(stake in 0..=i64::MAX, a in any::<u64>(), b in any::<u64>(), cap in 0..=i64::MAX) {
            let (low, high) = (a.min(b), a.max(b));
            prop_assert!(payout(idr(stake), at(low), idr(cap)) <= payout(idr(stake), at(high), idr(cap)));
        }

        #[test]
        fn is_the_exact_floor_below_the_cap(stake in 0..1_000_000_000i64, hundredths in 0..10_000_000u64) {
            let expected = i128::from(stake) * i128::from(hundredths) / 100;
            prop_assert_eq!(i128::from(payout(idr(stake), at(hundredths), idr(i64::MAX)).get()), expected);
        }
    }
}
