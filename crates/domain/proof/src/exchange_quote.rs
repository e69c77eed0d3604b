//! The pieces of an exchange's quote: which pair it prices and the rate as the exchange
//! wrote it. A rate is a decimal string, never a float: digits with at most one decimal
//! point (digits on both sides), no sign, no exponent, more than zero.

use std::fmt;
use std::str::FromStr;

use opinion_wallet::Currency;
use serde_with::{DeserializeFromStr, SerializeDisplay};

/// Longest rate accepted, in characters.
const MAX_RATE_CHARS: usize = 40;

/// A positive decimal rate, kept exactly as the exchange wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub struct ExchangeRate(String);

/// Text that is not a rate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a rate: a positive decimal of digits with at most one point, no sign or exponent")]
pub struct ExchangeRateError(pub String);

impl ExchangeRate {
    /// The decimal text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for ExchangeRate {
    type Err = ExchangeRateError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, "1"));
        let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        let positive = text.bytes().any(|b| (b'1'..=b'9').contains(&b));
        if text.len() <= MAX_RATE_CHARS && digits(whole) && digits(fraction) && positive {
            Ok(Self(text.to_owned()))
        } else {
            Err(ExchangeRateError(text.to_owned()))
        }
    }
}

impl fmt::Display for ExchangeRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a rate prices: how many `quote` one `base` is worth, written `BASE/QUOTE`
/// (`USDT/IDR`). Assets are exchange codes (2 to 10 upper-case letters or digits), not
/// only ISO 4217 currencies: exchanges quote tokens such as USDT.
#[derive(Debug, Clone, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub struct CurrencyPair {
    base: String,
    quote: String,
}

/// Text that is not a pair.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a pair: BASE/QUOTE, each 2 to 10 upper-case letters or digits")]
pub struct CurrencyPairError(pub String);

impl CurrencyPair {
    /// The asset priced.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The asset it is priced in.
    pub fn quote(&self) -> &str {
        &self.quote
    }
}

/// The pair a statement's comparison-only evidence prices: the operator's reporting
/// currency (its Opinion currency) in IDR, the currency every statement is owed in; `None`
/// when the reporting currency is IDR (nothing to compare). The US dollar is priced as
/// `USDT/IDR`: the IDR exchanges' public tickers quote the dollar only through that
/// dollar-pegged token, and the evidence names the pair it used.
pub fn reporting_pair(reporting: Currency) -> Option<CurrencyPair> {
    if reporting == Currency::IDR {
        return None;
    }
    let base = if reporting.as_str() == "USD" {
        "USDT"
    } else {
        reporting.as_str()
    };
    Some(CurrencyPair {
        base: base.to_owned(),
        quote: Currency::IDR.as_str().to_owned(),
    })
}

impl FromStr for CurrencyPair {
    type Err = CurrencyPairError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let asset = |part: &str| {
            (2..=10).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        };
        match text.split_once('/') {
            Some((base, quote)) if asset(base) && asset(quote) && base != quote => Ok(Self {
                base: base.to_owned(),
                quote: quote.to_owned(),
            }),
            _ => Err(CurrencyPairError(text.to_owned())),
        }
    }
}

impl fmt::Display for CurrencyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.base, self.quote)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_is_a_positive_plain_decimal() {
        for good in ["16250", "16250.5", "0.000061", "1.0", "007"] {
            assert_eq!(good.parse::<ExchangeRate>().map(|r| r.to_string()).as_deref(), Ok(good));
        }
        let long = "1".repeat(41);
        for bad in [
            "",
            "0",
            "0.000",
            "-1",
            "+1",
            "1e3",
            "1E3",
            "1.",
            ".5",
            "1.2.3",
            "1,5",
            " 1",
            "NaN",
            "inf",
            long.as_str(),
        ] {
            assert!(bad.parse::<ExchangeRate>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_reporting_pair_prices_the_operator_currency_in_idr() {
        let pair = |code: &str| reporting_pair(code.parse().expect("currency")).map(|p| p.to_string());
        assert_eq!(pair("IDR"), None);
        assert_eq!(pair("USD").as_deref(), Some("USDT/IDR"));
        assert_eq!(pair("EUR").as_deref(), Some("EUR/IDR"));
    }

    #[test]
    fn a_pair_is_base_slash_quote() {
        let pair: CurrencyPair = "USDT/IDR".parse().expect("pair");
        assert_eq!((pair.base(), pair.quote()), ("USDT", "IDR"));
        assert_eq!(pair.to_string(), "USDT/IDR");
        for bad in ["USDTIDR", "usdt/idr", "U/IDR", "IDR/IDR", "USDT/IDR/X", "USDT-IDR", ""] {
            assert!(bad.parse::<CurrencyPair>().is_err(), "{bad:?}");
        }
    }
}
