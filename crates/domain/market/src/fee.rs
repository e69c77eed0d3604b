//! The per-market trading fee, in basis points of the trade's gross amount.
//!
//! The fee is always rounded up: on a buy it is added to the debit, on a sale it is
//! taken from the credit, so rounding never favours the player.

/// A validated fee rate, `0..=`[`FeeRate::MAX_BPS`] basis points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FeeRate(u16);

/// Why a fee rate is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("fee must be at most {max} basis points, got {0}", max = FeeRate::MAX_BPS)]
pub struct FeeRateError(pub u16);

const BPS_PER_WHOLE: i128 = 10_000;

impl FeeRate {
    /// Highest accepted fee: 1000 bps = 10%. Keeps a sale's fee below its gross.
    pub const MAX_BPS: u16 = 1_000;

    /// No fee.
    pub const ZERO: Self = Self(0);

    /// Validates a rate in basis points.
    pub fn from_bps(bps: u16) -> Result<Self, FeeRateError> {
        if bps > Self::MAX_BPS {
            Err(FeeRateError(bps))
        } else {
            Ok(Self(bps))
        }
    }

    /// The rate in basis points.
    pub fn bps(self) -> u16 {
        self.0
    }

    /// `ceil(gross × bps / 10000)` for a non-negative gross amount: the fee on a buy's
    /// cost or a sale's gross proceeds. At most `gross` because the rate is at most 10%.
    pub(crate) fn fee_on(self, gross: i64) -> i64 {
        let product = i128::from(gross) * i128::from(self.0);
        let fee = (product + BPS_PER_WHOLE - 1).div_euclid(BPS_PER_WHOLE);
        // At most `gross` (the rate is at most 100%), so it fits in an i64.
        fee as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        assert_eq!(FeeRate::from_bps(0), Ok(FeeRate::ZERO));
        assert_eq!(FeeRate::from_bps(1_000).map(FeeRate::bps), Ok(1_000));
        assert_eq!(FeeRate::from_bps(1_001), Err(FeeRateError(1_001)));
        assert_eq!(
            FeeRateError(2_000).to_string(),
            "fee must be at most 1000 basis points, got 2000"
        );
    }

    #[test]
    fn fee_rounds_up() {
        let two_percent = FeeRate::from_bps(200).unwrap();
        assert_eq!(two_percent.fee_on(0), 0);
        assert_eq!(two_percent.fee_on(1), 1);
        assert_eq!(two_percent.fee_on(50), 1);
        assert_eq!(two_percent.fee_on(51), 2);
        assert_eq!(two_percent.fee_on(100), 2);
        assert_eq!(FeeRate::ZERO.fee_on(1_000_000), 0);
        let max = FeeRate::from_bps(FeeRate::MAX_BPS).unwrap();
        assert_eq!(max.fee_on(1), 1);
        assert_eq!(max.fee_on(10), 1);
        assert_eq!(max.fee_on(11), 2);
        assert_eq!(max.fee_on(22_000_000_000_000), 2_200_000_000_000);
    }
}
