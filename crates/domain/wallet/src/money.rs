//! The money of a wallet mutation: a positive count of minor units and the ISO 4217 code
//! of its currency (the operator's for Opinion, IDR for the flight product). Integers
//! only, so an amount is the same on every machine and in every fingerprint. On the wire
//! both are strings: the amount in plain decimal digits (`"150000"`), never a JSON
//! number, so no parser turns it into a float. An IDR amount counts whole rupiah: the
//! rupiah has no minor unit in practice, so the unit of an IDR amount is the rupiah.

use std::fmt;
use std::str::FromStr;

use opinion_flight::Rupiah;
use serde_with::{DeserializeFromStr, SerializeDisplay};

/// An ISO 4217 alphabetic currency code (`IDR`, `EUR`, …): three upper-case letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub struct Currency([u8; 3]);

/// Why a text is not a currency code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a three-letter upper-case ISO 4217 currency code")]
pub struct CurrencyError(pub String);

impl Currency {
    /// The codes `from_str` accepts, as a regular expression for the API document.
    pub const PATTERN: &'static str = "^[A-Z]{3}$";

    /// Indonesian rupiah, the flight product's currency, counted in whole rupiah.
    pub const IDR: Currency = Currency(*b"IDR");

    /// Digits after the decimal point of one major unit, as this platform counts amounts
    /// of the currency: none for IDR (counted in whole rupiah), else the ISO 4217
    /// exponent (2 unless the currency is listed with another).
    pub fn minor_digits(&self) -> u32 {
        match self.as_str() {
            "IDR" | "BIF" | "CLP" | "DJF" | "GNF" | "ISK" | "JPY" | "KMF" | "KRW" | "PYG" | "RWF" | "UGX" | "UYI"
            | "VND" | "VUV" | "XAF" | "XOF" | "XPF" => 0,
            "BHD" | "IQD" | "JOD" | "KWD" | "LYD" | "OMR" | "TND" => 3,
            "CLF" | "UYW" => 4,
            _ => 2,
        }
    }

    /// The code as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII upper-case letters are ever stored, so this cannot fail.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl FromStr for Currency {
    type Err = CurrencyError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.as_bytes() {
            &[a, b, c] if [a, b, c].iter().all(u8::is_ascii_uppercase) => Ok(Self([a, b, c])),
            _ => Err(CurrencyError(text.to_owned())),
        }
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much one mutation moves, in minor units of its currency. Always more than zero:
/// the flow says which way the money goes, and a zero mutation has no business meaning.
/// Its one text form is plain decimal digits without sign or leading zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub struct Amount(i64);

/// Why a number of minor units is not a mutation amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a wallet mutation amount must be more than zero minor units, got {0}")]
pub struct AmountError(pub i64);

impl Amount {
    /// Accepts a positive number of minor units.
    pub const fn new(minor_units: i64) -> Result<Self, AmountError> {
        if minor_units > 0 {
            Ok(Self(minor_units))
        } else {
            Err(AmountError(minor_units))
        }
    }

    /// The number of minor units.
    pub const fn minor_units(self) -> i64 {
        self.0
    }

    /// An IDR amount of `rupiah` whole rupiah (the unit of IDR amounts), above zero.
    pub const fn from_rupiah(rupiah: Rupiah) -> Result<Self, AmountError> {
        Self::new(rupiah.get())
    }
}

/// A text that is not an amount in its one accepted form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an amount: plain decimal digits of a whole number of minor units above zero")]
pub struct AmountTextError(pub String);

impl FromStr for Amount {
    type Err = AmountTextError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let canonical =
            text.starts_with(|c: char| ('1'..='9').contains(&c)) && text.bytes().all(|b| b.is_ascii_digit());
        let minor_units = if canonical { text.parse().ok() } else { None };
        minor_units.map(Self).ok_or_else(|| AmountTextError(text.to_owned()))
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_digits_follow_iso_4217_but_rupiah_are_whole() {
        let digits = |code: &str| code.parse::<Currency>().expect("code").minor_digits();
        assert_eq!(digits("USD"), 2);
        assert_eq!(digits("IDR"), 0);
        assert_eq!(digits("JPY"), 0);
        assert_eq!(digits("KWD"), 3);
    }

    #[test]
    fn currency_codes_are_three_upper_case_letters() {
        assert_eq!("IDR".parse::<Currency>().map(|c| c.to_string()), Ok("IDR".into()));
        for bad in ["idr", "ID", "IDRR", "I1R", "", "ÉUR"] {
            assert_eq!(bad.parse::<Currency>(), Err(CurrencyError(bad.into())), "{bad}");
        }
    }

    #[test]
    fn idr_is_a_currency_code() {
        assert_eq!(Currency::IDR.as_str(), "IDR");
        assert_eq!("IDR".parse::<Currency>(), Ok(Currency::IDR));
    }

    #[test]
    fn rupiah_become_amounts_one_for_one() {
        let stake = Rupiah::new(150_000).unwrap();
        assert_eq!(Amount::from_rupiah(stake).map(Amount::minor_units), Ok(150_000));
        assert_eq!(Amount::from_rupiah(Rupiah::ZERO), Err(AmountError(0)));
    }

    #[test]
    fn amounts_are_positive() {
        assert_eq!(Amount::new(1).map(Amount::minor_units), Ok(1));
        assert_eq!(Amount::new(i64::MAX).map(Amount::minor_units), Ok(i64::MAX));
        assert_eq!(Amount::new(0), Err(AmountError(0)));
        assert_eq!(Amount::new(-5), Err(AmountError(-5)));
    }

    #[test]
    fn amounts_have_one_text_form() {
        assert_eq!("150000".parse::<Amount>().map(Amount::minor_units), Ok(150_000));
        assert_eq!(
            "9223372036854775807".parse::<Amount>().map(Amount::minor_units),
            Ok(i64::MAX)
        );
        for bad in ["0", "007", "-1", "+1", "1.5", "1e3", " 1", "", "9223372036854775808"] {
            assert_eq!(bad.parse::<Amount>(), Err(AmountTextError(bad.into())), "{bad}");
        }
    }

    #[test]
    fn money_is_written_as_strings() {
        let amount = Amount::new(250).unwrap();
        assert_eq!(serde_json::to_string(&amount).unwrap(), r#""250""#);
        assert!(serde_json::from_str::<Amount>("250").is_err());
        let currency: Currency = serde_json::from_str(r#""IDR""#).unwrap();
        assert_eq!(currency.as_str(), "IDR");
        assert!(serde_json::from_str::<Currency>(r#""idr""#).is_err());
    }

    proptest::proptest! {
        #[test]
        fn amounts_round_trip_through_text(minor_units in 1..=i64::MAX) {
            let amount = Amount::new(minor_units).unwrap();
            proptest::prop_assert_eq!(amount.to_string().parse::<Amount>(), Ok(amount));
        }
    }
}
