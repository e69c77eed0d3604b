//! The LMSR liquidity parameter `b` of a market, in minor units.
//!
//! Larger `b` means prices move less per share traded and the maker can lose more: the
//! worst-case subsidy of a pool is `b·ln 2` minor units.

/// A validated liquidity parameter `b`, `1..=`[`Liquidity::MAX`] minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Liquidity(i64);

/// Why a liquidity parameter is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LiquidityError {
    /// `b` must be positive: it divides every exponent.
    #[error("liquidity must be positive, got {0}")]
    NotPositive(i64),
    /// Above [`Liquidity::MAX`] the rounding margin no longer covers the float error.
    #[error("liquidity must be at most {max}, got {0}", max = Liquidity::MAX)]
    TooLarge(i64),
}

impl Liquidity {
    /// Largest accepted `b` (10^12 minor units, ten billion major units of a two-decimal
    /// currency). The float error of the pricing grows with `b`; this bound keeps it far
    /// below [`crate::ROUNDING_MARGIN`].
    pub const MAX: i64 = 1_000_000_000_000;

    /// Validates `b`.
    pub fn new(minor_units: i64) -> Result<Self, LiquidityError> {
        if minor_units <= 0 {
            Err(LiquidityError::NotPositive(minor_units))
        } else if minor_units > Self::MAX {
            Err(LiquidityError::TooLarge(minor_units))
        } else {
            Ok(Self(minor_units))
        }
    }

    /// `b` in minor units.
    pub fn minor_units(self) -> i64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        assert_eq!(Liquidity::new(1).map(Liquidity::minor_units), Ok(1));
        assert_eq!(
            Liquidity::new(Liquidity::MAX).map(Liquidity::minor_units),
            Ok(Liquidity::MAX)
        );
        assert_eq!(Liquidity::new(0), Err(LiquidityError::NotPositive(0)));
        assert_eq!(Liquidity::new(-5), Err(LiquidityError::NotPositive(-5)));
        assert_eq!(
            Liquidity::new(Liquidity::MAX + 1),
            Err(LiquidityError::TooLarge(Liquidity::MAX + 1))
        );
    }
}
