//! The metadata values that are neither ids nor another crate's names: the number of
//! shares of a trade, and the flight product's multipliers (outcomes and resolutions are
//! the market crate's `Outcome` and `Resolution`, written with their lower-case names;
//! multipliers are the flight crate's, written with two decimals). Each value has exactly
//! one text form, so the metadata of an action, and with it the request fingerprint,
//! never varies.
//!
//! A ticket without an auto cash-out still carries `autoCashOut`, as the word `none`:
//! metadata is an object of string values on the wire, so every key is present and every
//! value a string, and a wallet never meets a JSON `null` there.

use std::fmt;
use std::str::FromStr;

use opinion_flight::Multiplier;

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

/// The `autoCashOut` value of a ticket bought without an auto cash-out.
pub const NO_AUTO_CASH_OUT: &str = "none";

/// The `autoCashOut` value: the target with two decimals, or [`NO_AUTO_CASH_OUT`].
pub(crate) fn auto_cash_out_text(target: Option<Multiplier>) -> String {
    target.map_or_else(|| NO_AUTO_CASH_OUT.to_owned(), |target| target.to_string())
}

/// Reads an `autoCashOut` value: `none`, or a cash-out multiplier.
pub(crate) fn read_auto_cash_out(text: &str) -> Result<Option<Multiplier>, BadValue> {
    if text == NO_AUTO_CASH_OUT {
        return Ok(None);
    }
    read_cash_out(text).map(Some)
}

/// Reads a multiplier a ticket can be cashed out at: two decimals, at least 1.01×.
pub(crate) fn read_cash_out(text: &str) -> Result<Multiplier, BadValue> {
    text.parse::<Multiplier>()
        .ok()
        .filter(|multiplier| *multiplier >= Multiplier::MIN_CASH_OUT)
        .ok_or_else(|| BadValue(text.to_owned()))
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

    #[test]
    fn auto_cash_outs_are_a_cash_out_multiplier_or_none() {
        assert_eq!(auto_cash_out_text(None), "none");
        assert_eq!(auto_cash_out_text(Some(Multiplier::from_hundredths(250))), "2.50");
        assert_eq!(read_auto_cash_out("none"), Ok(None));
        assert_eq!(read_auto_cash_out("1.01"), Ok(Some(Multiplier::MIN_CASH_OUT)));
        for bad in ["", "null", "None", "1.00", "0.50", "2.5", "2", "-2.00"] {
            assert_eq!(read_auto_cash_out(bad), Err(BadValue(bad.into())), "{bad}");
        }
    }

    #[test]
    fn a_cash_out_is_at_least_the_lowest_winning_multiplier() {
        assert_eq!(read_cash_out("418.12"), Ok(Multiplier::from_hundredths(41_812)));
        for bad in ["1.00", "none", "3.4", ""] {
            assert_eq!(read_cash_out(bad), Err(BadValue(bad.into())), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn auto_cash_outs_round_trip(hundredths in 101u64..=10_000_000) {
            let target = Some(Multiplier::from_hundredths(hundredths));
            prop_assert_eq!(read_auto_cash_out(&auto_cash_out_text(target)), Ok(target));
        }

        #[test]
        fn share_counts_round_trip(shares in 1..=i64::MAX) {
            let count = ShareCount::new(shares).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(count.to_string().parse::<ShareCount>(), Ok(count));
        }
    }
}
