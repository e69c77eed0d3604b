//! Gross gaming revenue: what the operator keeps of its players' play before the
//! platform's share, `stakes − payouts − refunds`, in whole rupiah. Negative when players
//! won more than they staked, so it is a signed number, not a `Rupiah`.

use crate::rupiah::Rupiah;

/// `stakes − payouts − refunds`, saturating at the ends of `i64` (sums of whole rupiah
/// never get near them).
pub fn gross_gaming_revenue(stakes: Rupiah, payouts: Rupiah, refunds: Rupiah) -> i64 {
    i128::from(stakes.get())
        .saturating_sub(i128::from(payouts.get()))
        .saturating_sub(i128::from(refunds.get()))
        .clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn idr(value: i64) -> Rupiah {
        Rupiah::new(value).expect("rupiah")
    }

    #[test]
    fn stakes_less_payouts_less_refunds() {
        assert_eq!(gross_gaming_revenue(idr(100_000), idr(34_600), idr(20_000)), 45_400);
        assert_eq!(gross_gaming_revenue(idr(10_000), idr(34_600), idr(0)), -24_600);
        assert_eq!(gross_gaming_revenue(Rupiah::ZERO, Rupiah::ZERO, Rupiah::ZERO), 0);
    }

    proptest! {
        #[test]
        fn it_is_the_exact_difference_whenever_it_fits(
            stakes in 0..i64::MAX / 2,
            payouts in 0..i64::MAX / 2,
            refunds in 0..i64::MAX / 2,
        ) {
            prop_assert_eq!(
                gross_gaming_revenue(idr(stakes), idr(payouts), idr(refunds)),
                stakes - payouts - refunds
            );
        }

        #[test]
        fn it_never_overflows(stakes in 0..=i64::MAX, payouts in 0..=i64::MAX, refunds in 0..=i64::MAX) {
            let ggr = gross_gaming_revenue(idr(stakes), idr(payouts), idr(refunds));
            prop_assert!(ggr <= stakes);
        }
    }
}
