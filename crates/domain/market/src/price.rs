//! A price (the market's probability of an outcome) in parts per million, so that no
//! float leaves the pricing computation.

use std::fmt;

/// A price in parts per million, `0..=1_000_000`: what one share is worth as a fraction
/// of its one-minor-unit payout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PricePpm(u32);

/// A number of parts per million above one: no price is more than certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a price must be at most 1000000 ppm, got {0}")]
pub struct PriceOutOfRange(pub i64);

impl PricePpm {
    /// A certain outcome, the upper bound of every price.
    pub const ONE: Self = Self(1_000_000);

    /// Builds a price from a value already known to be within `0..=1_000_000`.
    pub(crate) fn saturating(ppm: u32) -> Self {
        Self(ppm.min(Self::ONE.0))
    }

    /// Rebuilds a stored or computed price, refusing anything outside `0..=1_000_000`.
    pub fn from_ppm(ppm: i64) -> Result<Self, PriceOutOfRange> {
        u32::try_from(ppm)
            .ok()
            .filter(|ppm| *ppm <= Self::ONE.0)
            .map(Self)
            .ok_or(PriceOutOfRange(ppm))
    }

    /// The price in parts per million.
    pub fn ppm(self) -> u32 {
        self.0
    }

    /// The price of the other outcome: the two always add up to one.
    pub fn complement(self) -> Self {
        Self(Self::ONE.0 - self.0)
    }

    /// `floor(shares × price)`: what `shares` are worth at this price, never overstated.
    pub fn value_of(self, shares: i64) -> i64 {
        let value = i128::from(shares) * i128::from(self.0) / i128::from(Self::ONE.0);
        // At most `shares` in absolute value, so it fits in an i64.
        value as i64
    }
}

impl fmt::Display for PricePpm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:06}", self.0 / Self::ONE.0, self.0 % Self::ONE.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturates_complements_and_values() {
        assert_eq!(PricePpm::saturating(2_000_000), PricePpm::ONE);
        let p = PricePpm::saturating(250_000);
        assert_eq!(p.ppm(), 250_000);
        assert_eq!(p.complement().ppm(), 750_000);
        assert_eq!(PricePpm::ONE.complement().ppm(), 0);
        assert_eq!(p.value_of(3), 0);
        assert_eq!(p.value_of(4), 1);
        assert_eq!(p.value_of(7), 1);
        assert_eq!(PricePpm::ONE.value_of(10_000_000_000_000), 10_000_000_000_000);
        assert_eq!(p.to_string(), "0.250000");
        assert_eq!(PricePpm::ONE.to_string(), "1.000000");
    }

    #[test]
    fn stored_prices_are_checked() {
        assert_eq!(PricePpm::from_ppm(0).map(PricePpm::ppm), Ok(0));
        assert_eq!(PricePpm::from_ppm(1_000_000), Ok(PricePpm::ONE));
        assert_eq!(PricePpm::from_ppm(1_000_001), Err(PriceOutOfRange(1_000_001)));
        assert_eq!(PricePpm::from_ppm(-1), Err(PriceOutOfRange(-1)));
    }
}
