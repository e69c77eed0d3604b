//! Mixed money: every amount carries its currency, `{"amount": "<integer string>",
//! "currency": "IDR"}`, in the currency's unit (whole rupiah for IDR), and totals are kept
//! per currency. No function here sums two currencies: `Money::checked_add` refuses, and
//! `MoneyTotals` only ever adds an amount to its own currency's bucket.
//!
//! Amounts are `i128`, so the totals of any number of `i64` lines never overflow; the text
//! form is plain decimal digits with an optional leading `-`, no `+`, no leading zeros,
//! no `-0`.

use std::collections::BTreeMap;
use std::fmt;

use opinion_wallet::Currency;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An amount of one currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    amount: i128,
    currency: Currency,
}

/// Money that cannot be added or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// Two currencies were to be summed.
    #[error("{0} and {1} are different currencies: their amounts are never summed")]
    CurrencyMismatch(Currency, Currency),
    /// The sum is past `i128`.
    #[error("the sum is too large")]
    Overflow,
    /// The amount is not an integer string.
    #[error("`{0}` is not an amount: an integer written as plain decimal digits")]
    AmountText(String),
}

impl Money {
    /// `amount` units of `currency`.
    pub const fn new(amount: i128, currency: Currency) -> Self {
        Self { amount, currency }
    }

    /// `rupiah` whole rupiah.
    pub const fn idr(rupiah: i64) -> Self {
        Self::new(rupiah as i128, Currency::IDR)
    }

    /// The amount, in units of its currency.
    pub const fn amount(&self) -> i128 {
        self.amount
    }

    /// Its currency.
    pub const fn currency(&self) -> Currency {
        self.currency
    }

    /// The sum of two amounts of the same currency; different currencies are refused.
    pub fn checked_add(self, other: Self) -> Result<Self, MoneyError> {
        if self.currency != other.currency {
            return Err(MoneyError::CurrencyMismatch(self.currency, other.currency));
        }
        let amount = self.amount.checked_add(other.amount).ok_or(MoneyError::Overflow)?;
        Ok(Self::new(amount, self.currency))
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.amount, self.currency)
    }
}

/// Parses an amount's text.
fn parse_amount(text: &str) -> Result<i128, MoneyError> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    let amount = if canonical { text.parse().ok() } else { None };
    amount.ok_or_else(|| MoneyError::AmountText(text.to_owned()))
}

/// The wire form.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoneyWire {
    amount: String,
    currency: Currency,
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MoneyWire {
            amount: self.amount.to_string(),
            currency: self.currency,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = MoneyWire::deserialize(deserializer)?;
        let amount = parse_amount(&wire.amount).map_err(serde::de::Error::custom)?;
        Ok(Self::new(amount, wire.currency))
    }
}

/// Totals kept per currency, one bucket each. On the wire: a list of money, one per
/// currency that has a line, ordered by currency code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoneyTotals(BTreeMap<Currency, i128>);

impl MoneyTotals {
    /// No money yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `money` to its own currency's total.
    pub fn add(&mut self, money: Money) -> Result<(), MoneyError> {
        let total = self.0.entry(money.currency).or_insert(0);
        *total = total.checked_add(money.amount).ok_or(MoneyError::Overflow)?;
        Ok(())
    }

    /// The total of `currency` (zero when it has no line).
    pub fn of(&self, currency: Currency) -> Money {
        Money::new(self.0.get(&currency).copied().unwrap_or(0), currency)
    }

    /// One total per currency, ordered by currency code.
    pub fn iter(&self) -> impl Iterator<Item = Money> + '_ {
        self.0.iter().map(|(currency, amount)| Money::new(*amount, *currency))
    }
}

impl From<Money> for MoneyTotals {
    fn from(money: Money) -> Self {
        Self(BTreeMap::from([(money.currency, money.amount)]))
    }
}

impl Serialize for MoneyTotals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn currency(code: &str) -> Currency {
        code.parse().expect("currency")
    }

    #[test]
    fn money_is_an_integer_string_and_its_currency() {
        let money = Money::idr(150_000);
        assert_eq!(
            serde_json::to_value(money).expect("json"),
            json!({"amount": "150000", "currency": "IDR"})
        );
        let negative: Money = serde_json::from_value(json!({"amount": "-7", "currency": "USD"})).expect("money");
        assert_eq!(negative, Money::new(-7, currency("USD")));
        for bad in [
            "",
            "-",
            "-0",
            "+1",
            "01",
            "1.0",
            "1e3",
            " 1",
            "9999999999999999999999999999999999999999",
        ] {
            let parsed = serde_json::from_value::<Money>(json!({"amount": bad, "currency": "IDR"}));
            assert!(parsed.is_err(), "{bad:?}");
        }
        assert!(serde_json::from_value::<Money>(json!({"amount": 5, "currency": "IDR"})).is_err());
        assert!(serde_json::from_value::<Money>(json!({"amount": "5", "currency": "idr"})).is_err());
    }

    #[test]
    fn two_currencies_are_never_summed() {
        let usd = Money::new(5, currency("USD"));
        assert_eq!(
            Money::idr(1).checked_add(usd),
            Err(MoneyError::CurrencyMismatch(Currency::IDR, currency("USD")))
        );
        assert_eq!(Money::idr(1).checked_add(Money::idr(2)), Ok(Money::idr(3)));
        assert_eq!(
            Money::new(i128::MAX, Currency::IDR).checked_add(Money::idr(1)),
            Err(MoneyError::Overflow)
        );
    }

    #[test]
    fn totals_are_written_one_per_currency_in_code_order() {
        let mut totals = MoneyTotals::new();
        for money in [Money::idr(10), Money::new(3, currency("USD")), Money::idr(-4)] {
            totals.add(money).expect("added");
        }
        assert_eq!(
            serde_json::to_value(&totals).expect("json"),
            json!([{"amount": "6", "currency": "IDR"}, {"amount": "3", "currency": "USD"}])
        );
        assert_eq!(totals.of(currency("EUR")), Money::new(0, currency("EUR")));
    }

    fn any_money() -> impl Strategy<Value = Money> {
        let currencies = prop::sample::select(vec!["IDR", "USD", "EUR"]);
        (any::<i64>(), currencies).prop_map(|(amount, code)| Money::new(i128::from(amount), currency(code)))
    }

    proptest! {
        #[test]
        fn each_currencys_total_is_the_sum_of_its_own_lines(lines in prop::collection::vec(any_money(), 0..200)) {
            let mut totals = MoneyTotals::new();
            for line in &lines {
                totals.add(*line).expect("no overflow from i64 lines");
            }
            for total in totals.iter() {
                let own: i128 = lines.iter().filter(|l| l.currency() == total.currency()).map(Money::amount).sum();
                prop_assert_eq!(total.amount(), own);
            }
            let present: std::collections::BTreeSet<_> = lines.iter().map(Money::currency).collect();
            prop_assert_eq!(totals.iter().map(|m| m.currency()).collect::<std::collections::BTreeSet<_>>(), present);
        }

        #[test]
        fn no_sum_crosses_currencies(one in any_money(), other in any_money()) {
            let sum = one.checked_add(other);
            if one.currency() == other.currency() {
                prop_assert_eq!(sum.map(|m| m.amount()), Ok(one.amount() + other.amount()));
            } else {
                prop_assert!(matches!(sum, Err(MoneyError::CurrencyMismatch(..))));
            }
        }

        #[test]
        fn money_survives_its_wire_form(money in any_money()) {
            let wire = serde_json::to_value(money).expect("json");
            prop_assert_eq!(serde_json::from_value::<Money>(wire).expect("read"), money);
        }
    }
}
