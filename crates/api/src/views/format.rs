//! How amounts, shares, prices and times read on a page: minor units shown in the
//! currency's major units (the platform's digits: ISO 4217, rupiah whole), share units likewise (one share pays one
//! major unit in the hosted app), prices as percentages, times as UTC.

use opinion_market::PricePpm;
use opinion_wallet::Currency;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::shared::major_units::major_units;

/// Digits after the decimal point of a currency's major unit, as the platform counts it;
/// 2 for a code that is not a currency.
fn exponent(currency: &str) -> u32 {
    currency
        .parse::<Currency>()
        .map_or(2, |currency| currency.minor_digits())
}

/// `minor` as a decimal of major units with thousands separators: `-1,234.50`.
pub fn units(minor: i64, currency: &str) -> String {
    major_units(minor, exponent(currency))
}

/// An amount with its currency: `1,234.50 USD`.
pub fn money(minor: i64, currency: &str) -> String {
    format!("{} {currency}", units(minor, currency))
}

/// A price as a percentage with two decimals: `73.11%`.
pub fn percent(price: PricePpm) -> String {
    let hundredths = (u64::from(price.ppm()) + 50) / 100;
    format!("{}.{:02}%", hundredths / 100, hundredths % 100)
}

/// A time as `2026-11-22 10:00:00 UTC`.
pub fn time(at: OffsetDateTime) -> String {
    at.format(format_description!("[year]-[month]-[day] [hour]:[minute]:[second] UTC"))
        .unwrap_or_else(|_| at.to_string())
}

/// An optional time, or a dash.
pub fn maybe_time(at: Option<OffsetDateTime>) -> String {
    at.map(time).unwrap_or_else(|| "—".to_owned())
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn amounts_use_the_currencys_exponent() {
        assert_eq!(money(123_450, "USD"), "1,234.50 USD");
        assert_eq!(money(-5, "EUR"), "-0.05 EUR");
        assert_eq!(money(1_500_000, "JPY"), "1,500,000 JPY");
        assert_eq!(money(1_234, "KWD"), "1.234 KWD");
        assert_eq!(money(0, "IDR"), "0 IDR");
        assert_eq!(money(1_250_000, "IDR"), "1,250,000 IDR");
        assert_eq!(units(i64::MIN, "USD"), "-92,233,720,368,547,758.08");
    }

    #[test]
    fn prices_and_times_read_naturally() {
        assert_eq!(percent(PricePpm::from_ppm(731_059).expect("price")), "73.11%");
        assert_eq!(percent(PricePpm::ONE), "100.00%");
        assert_eq!(time(datetime!(2026-11-22 10:00:05 UTC)), "2026-11-22 10:00:05 UTC");
        assert_eq!(maybe_time(None), "—");
    }
}
