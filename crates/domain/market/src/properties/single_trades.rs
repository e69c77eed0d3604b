//! One trade against the reference: (a) a buy's debit covers the exact cost and
//! exceeds it by less than two minor units plus the fee; (b) a sale's credit stays under
//! the exact proceeds and falls short by less than two plus the fee; (e) prices stay
//! within `[0, 1]`, match the exact price to the nearest ppm, and move the traded way.
//!
//! The gross amount is held to tighter bounds than the brief's: it lies at least half
//! the rounding margin on the player-unfavourable side of the exact value (so the float
//! error is under half the margin) and within one plus one and a half margins of it.

use proptest::prelude::*;

use super::exact_lmsr::{self, Exact};
use super::strategies::{fee, outcome, pool_and_size, sold_pool_and_size};
use crate::{Outcome, Pool, Quote, Side, quote_buy_shares, quote_sell};

/// Half the rounding margin of 2^-6.
fn half_margin() -> Exact {
    Exact::from_dyadic(1, 7)
}

/// One minor unit plus one and a half margins.
fn worst_rounding() -> Exact {
    Exact::from_dyadic(128 + 3, 7)
}

/// `quoted_ppm` is the exact price of `outcome` rounded to the nearest ppm (with 2^-20
/// ppm of slack for the float computing it).
fn is_nearest_ppm(pool: &Pool, outcome: Outcome, quoted_ppm: u32) -> bool {
    let exact_ppm = exact_lmsr::price(pool, outcome).times(1_000_000);
    let difference = (Exact::from_int(i64::from(quoted_ppm)) - exact_ppm).abs();
    difference <= Exact::from_dyadic((1 << 19) + 1, 20)
}

fn check_prices(quote: &Quote, before: &Pool) -> Result<(), TestCaseError> {
    let (price_before, price_after) = (quote.price_before.ppm(), quote.price_after.ppm());
    prop_assert!(price_before <= 1_000_000 && price_after <= 1_000_000);
    match quote.side {
        Side::Buy => prop_assert!(price_after >= price_before),
        Side::Sell => prop_assert!(price_after <= price_before),
    }
    prop_assert!(is_nearest_ppm(before, quote.outcome, price_before));
    prop_assert!(is_nearest_ppm(&quote.pool_after, quote.outcome, price_after));
    Ok(())
}

proptest! {
    #[test]
    fn a_buy_never_undercharges(
        (pool, size) in pool_and_size(),
        outcome in outcome(),
        fee in fee(),
    ) {
        let shares = size.min(Pool::MAX_OUTSTANDING - pool.outstanding(outcome));
        prop_assume!(shares >= 1);
        let quote = quote_buy_shares(&pool, outcome, shares, fee).unwrap();
        let exact = exact_lmsr::cost(&quote.pool_after) - exact_lmsr::cost(&pool);
        let gross = Exact::from_int(quote.gross());
        prop_assert_eq!(quote.fee, fee.fee_on(quote.gross()));
        prop_assert!(gross >= exact.clone() + half_margin());
        prop_assert!(gross < exact.clone() + worst_rounding());
        prop_assert!(Exact::from_int(quote.amount) <= exact + Exact::from_int(2 + quote.fee));
        check_prices(&quote, &pool)?;
    }

    #[test]
    fn a_sale_never_overpays(
        (pool, size) in sold_pool_and_size(),
        outcome in outcome(),
        fee in fee(),
    ) {
        let shares = size.min(pool.outstanding(outcome));
        let quote = quote_sell(&pool, outcome, shares, fee).unwrap();
        let exact = exact_lmsr::cost(&pool) - exact_lmsr::cost(&quote.pool_after);
        let gross = Exact::from_int(quote.gross());
        prop_assert_eq!(quote.fee, fee.fee_on(quote.gross()));
        prop_assert!(quote.amount >= 0);
        prop_assert!(quote.gross() == 0 || gross.clone() + half_margin() <= exact);
        prop_assert!(gross + worst_rounding() > exact);
        prop_assert!(Exact::from_int(quote.amount + 2 + quote.fee) >= exact);
        check_prices(&quote, &pool)?;
    }
}
