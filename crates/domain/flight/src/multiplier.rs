//! A multiplier of the flight curve, in hundredths (`346` is 3.46×). Integer hundredths
//! are what the fairness formula produces and what payouts are computed from; the wire
//! form is a decimal string with exactly two decimals, so no float ever carries one.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// A multiplier in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub struct Multiplier(u64);

/// Text that is not a multiplier: digits, a dot and exactly two decimals.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a multiplier: write it with exactly two decimals, like `2.50`")]
pub struct MultiplierTextError(pub String);

impl Multiplier {
    /// The texts `from_str` accepts, as a regular expression for the API document.
    pub const PATTERN: &'static str = "^(0|[1-9][0-9]{0,15})\\.[0-9]{2}$";

    /// 1.00×: where every flight takes off, and the crash point's floor.
    pub const ONE: Self = Self(100);
    /// 1.01×: the lowest multiplier a cash-out can win at.
    pub const MIN_CASH_OUT: Self = Self(101);

    /// The multiplier of `hundredths` hundredths.
    pub const fn from_hundredths(hundredths: u64) -> Self {
        Self(hundredths)
    }

    /// Its value in hundredths.
    pub const fn hundredths(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Multiplier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

impl FromStr for Multiplier {
    type Err = MultiplierTextError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let refuse = || MultiplierTextError(text.to_owned());
        let (whole, decimals) = text.split_once('.').ok_or_else(refuse)?;
        let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        let canonical_whole = whole == "0" || !whole.starts_with('0');
        if !digits(whole) || !canonical_whole || decimals.len() != 2 || !digits(decimals) {
            return Err(refuse());
        }
        let whole: u64 = whole.parse().map_err(|_| refuse())?;
        let decimals: u64 = decimals.parse().map_err(|_| refuse())?;
        whole
            .checked_mul(100)
            .and_then(|hundredths| hundredths.checked_add(decimals))
            .map(Self)
            .ok_or_else(refuse)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn writes_exactly_two_decimals() {
        assert_eq!(Multiplier::from_hundredths(346).to_string(), "3.46");
        assert_eq!(Multiplier::ONE.to_string(), "1.00");
        assert_eq!(Multiplier::from_hundredths(41812).to_string(), "418.12");
        assert_eq!(Multiplier::from_hundredths(5).to_string(), "0.05");
    }

    #[test]
    fn reads_only_the_canonical_form() {
        assert_eq!("3.46".parse(), Ok(Multiplier::from_hundredths(346)));
        assert_eq!("0.50".parse(), Ok(Multiplier::from_hundredths(50)));
        for bad in [
            "1.5", "1", "1.500", ".50", "01.50", "+1.50", "-1.50", "1,50", " 1.50", "1e2", "", "1.5x",
        ] {
            assert!(bad.parse::<Multiplier>().is_err(), "{bad:?} accepted");
        }
        assert!(
            "184467440737095516.16".parse::<Multiplier>().is_err(),
            "overflow accepted"
        );
    }

    #[test]
    fn serde_uses_the_decimal_string() {
        assert_eq!(
            serde_json::to_string(&Multiplier::from_hundredths(152)).ok().as_deref(),
            Some("\"1.52\"")
        );
        assert_eq!(
            serde_json::from_str::<Multiplier>("\"2.00\"").ok(),
            Some(Multiplier::from_hundredths(200))
        );
        assert!(serde_json::from_str::<Multiplier>("2.0").is_err());
    }

    proptest! {
        #[test]
        fn text_round_trips(hundredths in 0u64..=u64::MAX / 2) {
            let multiplier = Multiplier::from_hundredths(hundredths);
            prop_assert_eq!(multiplier.to_string().parse::<Multiplier>(), Ok(multiplier));
        }
    }
}
