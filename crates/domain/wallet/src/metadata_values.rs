//! The number of shares of a trade, the one metadata value that is neither an id nor a
//! market name (outcomes and resolutions are the market crate's `Outcome` and
//! `Resolution`, written with their lower-case names). Each value has exactly one text
//! form, so the metadata of an action, and with it the request fingerprint, never varies.

use std::fmt;
use std::str::FromStr;

/// A number of shares in a trade: a whole number above zero, written in plain decimal
/// digits without sign or leading zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShareCount(i64);

/// A metadata value that is not in its one accepted form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an accepted value")]
pub struct BadValue(pub String);

impl ShareCount {
    /// Accepts a number of shares above zero.
    pub fn new(shares: i64) -> Result<Self, BadValue> {
        if shares > 0 {
            Ok(Self(shares))
        } else {
            Err(BadValue(shares.to_string()))
        }
    }

    /// The number of shares.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl FromStr for ShareCount {
    type Err = BadValue;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let canonical =
            text.starts_with(|c: char| ('1'..='9').contains(&c)) && text.bytes().all(|b| b.is_ascii_digit());
        let shares = if canonical { text.parse().ok() } else { None };
        shares.map(Self).ok_or_else(|| BadValue(text.to_owned()))
    }
}

impl fmt::Display for ShareCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn share_counts_have_one_text_form() {
        assert_eq!("1".parse::<ShareCount>().map(ShareCount::get), Ok(1));
        assert_eq!(
            "9223372036854775807".parse::<ShareCount>().map(ShareCount::get),
            Ok(i64::MAX)
        );
        for bad in ["0", "01", "-1", "+1", "1.0", "1e3", " 1", "", "9223372036854775808"] {
            assert_eq!(bad.parse::<ShareCount>(), Err(BadValue(bad.into())), "{bad}");
        }
        assert_eq!(ShareCount::new(0), Err(BadValue("0".into())));
        assert_eq!(ShareCount::new(-3), Err(BadValue("-3".into())));
    }

    proptest! {
        #[test]
        fn share_counts_round_trip(shares in 1..=i64::MAX) {
            let count = ShareCount::new(shares).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(count.to_string().parse::<ShareCount>(), Ok(count));
        }
    }
}
