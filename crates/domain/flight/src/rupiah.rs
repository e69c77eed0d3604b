//! IDR money. Flight money is Indonesian rupiah in whole rupiah: the rupiah has no minor
//! unit in practice, so one unit here is one rupiah everywhere, wallet amounts included.
//! On the wire an amount is an integer string (`"150000"`), like every platform amount.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// A non-negative whole number of rupiah.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, SerializeDisplay, DeserializeFromStr)]
pub struct Rupiah(i64);

/// A number of rupiah below zero.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an IDR amount is a whole number of rupiah of zero or more, got {0}")]
pub struct RupiahError(pub i64);

/// Text that is not a whole number of rupiah.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an IDR amount: plain decimal digits of whole rupiah")]
pub struct RupiahTextError(pub String);

impl Rupiah {
    /// The texts `from_str` accepts, as a regular expression for the API document.
    pub const PATTERN: &'static str = "^(0|[1-9][0-9]{0,17})$";

    /// No money.
    pub const ZERO: Self = Self(0);

    /// `rupiah` whole rupiah, refused below zero.
    pub const fn new(rupiah: i64) -> Result<Self, RupiahError> {
        if rupiah >= 0 {
            Ok(Self(rupiah))
        } else {
            Err(RupiahError(rupiah))
        }
    }

    /// The number of rupiah.
    pub const fn get(self) -> i64 {
        self.0
    }

    /// The sum, or `None` past `i64::MAX`.
    pub const fn checked_add(self, other: Self) -> Option<Self> {
        match self.0.checked_add(other.0) {
            Some(sum) => Some(Self(sum)),
            None => None,
        }
    }

    /// The difference, or `None` below zero.
    pub const fn checked_sub(self, other: Self) -> Option<Self> {
        match self.0.checked_sub(other.0) {
            Some(difference) if difference >= 0 => Some(Self(difference)),
            _ => None,
        }
    }
}

impl fmt::Display for Rupiah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Rupiah {
    type Err = RupiahTextError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let canonical =
            !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
        let rupiah = if canonical { text.parse().ok() } else { None };
        rupiah.map(Self).ok_or_else(|| RupiahTextError(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_negative_amounts() {
        assert_eq!(Rupiah::new(-1), Err(RupiahError(-1)));
        assert_eq!(Rupiah::new(0).map(Rupiah::get), Ok(0));
    }

    #[test]
    fn text_is_plain_whole_rupiah() {
        assert_eq!("150000".parse::<Rupiah>().map(Rupiah::get), Ok(150_000));
        for bad in ["", "-5", "1.00", "007", "1e3", " 5", "9223372036854775808"] {
            assert!(bad.parse::<Rupiah>().is_err(), "{bad:?} accepted");
        }
        assert_eq!(
            serde_json::to_string(&Rupiah::new(2500).unwrap()).ok().as_deref(),
            Some("\"2500\"")
        );
    }

    #[test]
    fn sums_do_not_overflow_silently() {
        assert_eq!(
            Rupiah::new(i64::MAX).unwrap().checked_add(Rupiah::new(1).unwrap()),
            None
        );
        let five = Rupiah::new(5).unwrap();
        assert_eq!(five.checked_sub(Rupiah::new(2).unwrap()).map(Rupiah::get), Some(3));
        assert_eq!(five.checked_sub(five), Some(Rupiah::ZERO));
        assert_eq!(five.checked_sub(Rupiah::new(6).unwrap()), None);
    }
}
