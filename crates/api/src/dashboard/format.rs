//! How values read on a dashboard page: amounts in the operator's currency (its major
//! units, as the platform counts them), times in UTC on the server and in the viewer's own
//! zone once the dashboard's script has run, with UTC kept on hover.

use maud::{Markup, html};
use opinion_wallet::Currency;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

use crate::shared::major_units::major_units;

/// `minor` units of `currency` as major units with separators and the code: `-1,234.50 USD`.
pub fn amount(minor: i64, currency: Currency) -> String {
    format!("{} {}", major_units(minor, currency.minor_digits()), currency.as_str())
}

/// A time element: UTC as text and as its title; the script shows it in the viewer's zone.
pub fn at(time: OffsetDateTime) -> Markup {
    let utc = time
        .format(format_description!("[year]-[month]-[day] [hour]:[minute]:[second] UTC"))
        .unwrap_or_default();
    let machine = time.format(&Rfc3339).unwrap_or_default();
    html! { time datetime=(machine) title=(utc) { (utc) } }
}

/// An optional time, or a dash.
pub fn maybe_at(time: Option<OffsetDateTime>) -> Markup {
    match time {
        Some(time) => at(time),
        None => html! { span.muted { "—" } },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn currency(code: &str) -> Currency {
        code.parse().expect("code")
    }

    #[test]
    fn amounts_read_in_major_units_with_their_code() {
        assert_eq!(amount(123_450, currency("USD")), "1,234.50 USD");
        assert_eq!(amount(-5, currency("USD")), "-0.05 USD");
        assert_eq!(amount(1_500_000, currency("IDR")), "1,500,000 IDR");
        assert_eq!(amount(0, currency("KWD")), "0.000 KWD");
    }
}
