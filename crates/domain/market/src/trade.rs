//! Pricing trades against a pool: buy a number of shares, buy with an amount to spend,
//! or sell shares back.
//!
//! A buy debits `ceil(C(after) − C(before))` plus the fee; a sale credits
//! `floor(C(before) − C(after))` (never negative) minus the fee; both round with
//! [`crate::ROUNDING_MARGIN`] so float error always falls against the player.

use crate::{FeeRate, Outcome, Pool, Quote, Side, TradeError, lmsr};

/// Most shares one trade may move (10^13, the pool's own bound).
pub const MAX_TRADE_SHARES: i64 = Pool::MAX_OUTSTANDING;

/// Most minor units one buy by amount may offer (10^13).
pub const MAX_TRADE_AMOUNT: i64 = 10_000_000_000_000;

/// Prices buying exactly `shares` of `outcome`: the debit is the rounded-up cost plus
/// the rounded-up fee.
pub fn quote_buy_shares(pool: &Pool, outcome: Outcome, shares: i64, fee: FeeRate) -> Result<Quote, TradeError> {
    check_shares(shares)?;
    let after = pool.with_change(outcome, shares)?;
    let cost = lmsr::cost_change(pool, &after).rounded_up();
    let fee_amount = fee.fee_on(cost);
    Ok(Quote {
        outcome,
        side: Side::Buy,
        shares,
        amount: cost + fee_amount,
        fee: fee_amount,
        price_before: pool.price(outcome),
        price_after: after.price(outcome),
        pool_after: after,
    })
}

/// Prices spending at most `amount`: the largest share count whose debit (cost + fee,
/// rounded exactly as [`quote_buy_shares`] rounds it) fits, so the two always agree.
/// The quote's `amount` is what is actually debited, which may be less than offered.
pub fn quote_buy_amount(pool: &Pool, outcome: Outcome, amount: i64, fee: FeeRate) -> Result<Quote, TradeError> {
    if amount <= 0 {
        return Err(TradeError::AmountNotPositive(amount));
    }
    if amount > MAX_TRADE_AMOUNT {
        return Err(TradeError::AmountTooLarge(amount));
    }
    let one = quote_buy_shares(pool, outcome, 1, fee)?;
    if one.amount > amount {
        return Err(TradeError::AmountBelowOneShare {
            amount,
            minimum: one.amount,
        });
    }
    // Invariant: `fits` has an affordable quote for `fits.shares`; nothing above `limit`
    // is affordable or allowed.
    let mut fits = one;
    let mut limit = Pool::MAX_OUTSTANDING - pool.outstanding(outcome);
    while fits.shares < limit {
        let middle = fits.shares + (limit - fits.shares + 1) / 2;
        let candidate = quote_buy_shares(pool, outcome, middle, fee)?;
        if candidate.amount <= amount {
            fits = candidate;
        } else {
            limit = middle - 1;
        }
    }
    Ok(fits)
}

/// Prices selling `shares` of `outcome` back to the pool: the credit is the rounded-down
/// proceeds (at least 0) minus the rounded-up fee. Whether the player holds the shares
/// is the caller's check (see [`crate::Position::apply`]); the pool only refuses to buy
/// back more than it sold.
pub fn quote_sell(pool: &Pool, outcome: Outcome, shares: i64, fee: FeeRate) -> Result<Quote, TradeError> {
    check_shares(shares)?;
    let after = pool.with_change(outcome, -shares)?;
    // The credit is C(before) − C(after), the cost of the reverse move, rounded down.
    let gross = lmsr::cost_change(&after, pool).rounded_down().max(0);
    let fee_amount = fee.fee_on(gross);
    Ok(Quote {
        outcome,
        side: Side::Sell,
        shares,
        amount: gross - fee_amount,
        fee: fee_amount,
        price_before: pool.price(outcome),
        price_after: after.price(outcome),
        pool_after: after,
    })
}

fn check_shares(shares: i64) -> Result<(), TradeError> {
    if shares <= 0 {
        Err(TradeError::SharesNotPositive(shares))
    } else if shares > MAX_TRADE_SHARES {
        Err(TradeError::SharesTooLarge(shares))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Liquidity, PoolError};

    fn pool(b: i64, yes: i64, no: i64) -> Pool {
        Pool::from_parts(Liquidity::new(b).unwrap(), yes, no).unwrap()
    }

    fn bps(rate: u16) -> FeeRate {
        FeeRate::from_bps(rate).unwrap()
    }

    #[test]
    fn buying_shares_charges_cost_plus_fee_and_moves_the_price_up() {
        // b = 1000, buy 1000 YES from even: 1000·ln((e + 1)/2) = 620.114…
        let start = pool(1_000, 0, 0);
        let quote = quote_buy_shares(&start, Outcome::Yes, 1_000, bps(100)).unwrap();
        assert_eq!(quote.gross(), 621);
        assert_eq!(quote.fee, 7);
        assert_eq!(quote.amount, 628);
        assert_eq!(quote.side, Side::Buy);
        assert_eq!(quote.outcome, Outcome::Yes);
        assert_eq!(quote.shares, 1_000);
        assert_eq!(quote.price_before.ppm(), 500_000);
        assert_eq!(quote.price_after.ppm(), 731_059);
        assert_eq!(quote.pool_after, pool(1_000, 1_000, 0));
    }

    #[test]
    fn selling_credits_proceeds_minus_fee_and_moves_the_price_down() {
        let start = pool(1_000, 1_000, 0);
        let quote = quote_sell(&start, Outcome::Yes, 1_000, bps(100)).unwrap();
        assert_eq!(quote.gross(), 620);
        assert_eq!(quote.fee, 7);
        assert_eq!(quote.amount, 613);
        assert_eq!(quote.side, Side::Sell);
        assert_eq!(quote.price_before.ppm(), 731_059);
        assert_eq!(quote.price_after.ppm(), 500_000);
        assert_eq!(quote.pool_after, pool(1_000, 0, 0));
    }

    #[test]
    fn buying_no_is_the_mirror_of_buying_yes() {
        let start = pool(1_000, 0, 0);
        let yes = quote_buy_shares(&start, Outcome::Yes, 1_000, FeeRate::ZERO).unwrap();
        let no = quote_buy_shares(&start, Outcome::No, 1_000, FeeRate::ZERO).unwrap();
        assert_eq!(yes.amount, no.amount);
        assert_eq!(no.price_after.ppm(), 731_059);
        assert_eq!(no.pool_after, pool(1_000, 0, 1_000));
    }

    #[test]
    fn a_worthless_sale_pays_nothing_rather_than_a_negative_amount() {
        // YES at price ~e^-1000: one share is worth far less than the rounding margin.
        let start = pool(1, 1, 1_000);
        let quote = quote_sell(&start, Outcome::Yes, 1, bps(1_000)).unwrap();
        assert_eq!(quote.amount, 0);
        assert_eq!(quote.fee, 0);
    }

    #[test]
    fn share_counts_are_bounded() {
        let start = pool(10, 5, 5);
        for shares in [0, -1] {
            assert_eq!(
                quote_buy_shares(&start, Outcome::Yes, shares, FeeRate::ZERO),
                Err(TradeError::SharesNotPositive(shares))
            );
            assert_eq!(
                quote_sell(&start, Outcome::Yes, shares, FeeRate::ZERO),
                Err(TradeError::SharesNotPositive(shares))
            );
        }
        let too_many = MAX_TRADE_SHARES + 1;
        assert_eq!(
            quote_buy_shares(&start, Outcome::No, too_many, FeeRate::ZERO),
            Err(TradeError::SharesTooLarge(too_many))
        );
        assert_eq!(
            quote_sell(&start, Outcome::No, too_many, FeeRate::ZERO),
            Err(TradeError::SharesTooLarge(too_many))
        );
    }

    #[test]
    fn the_pool_refuses_to_leave_its_bounds() {
        let start = pool(10, 5, Pool::MAX_OUTSTANDING - 1);
        assert_eq!(
            quote_buy_shares(&start, Outcome::No, 2, FeeRate::ZERO),
            Err(TradeError::Pool(PoolError::OutstandingTooLarge {
                outcome: Outcome::No,
                shares: Pool::MAX_OUTSTANDING + 1
            }))
        );
        assert_eq!(
            quote_sell(&start, Outcome::Yes, 6, FeeRate::ZERO),
            Err(TradeError::Pool(PoolError::NegativeOutstanding {
                outcome: Outcome::Yes,
                shares: -1
            }))
        );
    }

    #[test]
    fn buying_by_amount_takes_the_most_shares_that_fit() {
        let start = pool(1_000, 0, 0);
        // 1000 and 1001 shares both cost 628 with the fee; 1002 cost 629.
        let quote = quote_buy_amount(&start, Outcome::Yes, 628, bps(100)).unwrap();
        assert_eq!(quote.shares, 1_001);
        assert_eq!(quote.amount, 628);
        let next = quote_buy_shares(&start, Outcome::Yes, 1_002, bps(100)).unwrap();
        assert_eq!(next.amount, 629);
        assert_eq!(quote, quote_buy_shares(&start, Outcome::Yes, 1_001, bps(100)).unwrap());
    }

    #[test]
    fn buying_by_amount_stops_at_the_pool_bound() {
        // NO is almost certain: every YES share up to the bound costs next to nothing.
        let start = pool(1, 0, Pool::MAX_OUTSTANDING);
        let quote = quote_buy_amount(&start, Outcome::Yes, 1_000, FeeRate::ZERO).unwrap();
        assert_eq!(quote.pool_after.outstanding(Outcome::Yes), Pool::MAX_OUTSTANDING);
        assert!(quote.amount <= 1_000);
        let full = pool(1, Pool::MAX_OUTSTANDING, 0);
        assert!(matches!(
            quote_buy_amount(&full, Outcome::Yes, 1_000, FeeRate::ZERO),
            Err(TradeError::Pool(PoolError::OutstandingTooLarge { .. }))
        ));
    }

    #[test]
    fn buying_by_amount_checks_the_amount() {
        let start = pool(1_000, 0, 0);
        assert_eq!(
            quote_buy_amount(&start, Outcome::Yes, 0, FeeRate::ZERO),
            Err(TradeError::AmountNotPositive(0))
        );
        assert_eq!(
            quote_buy_amount(&start, Outcome::Yes, MAX_TRADE_AMOUNT + 1, FeeRate::ZERO),
            Err(TradeError::AmountTooLarge(MAX_TRADE_AMOUNT + 1))
        );
        // One share costs 1 plus a 1 fee.
        assert_eq!(
            quote_buy_amount(&start, Outcome::Yes, 1, bps(10)),
            Err(TradeError::AmountBelowOneShare { amount: 1, minimum: 2 })
        );
        assert_eq!(
            quote_buy_amount(&start, Outcome::Yes, 2, bps(10)).map(|q| q.shares),
            Ok(1)
        );
        // Two shares and three shares both debit 3.
        assert_eq!(
            quote_buy_amount(&start, Outcome::Yes, 3, bps(10)).map(|q| (q.shares, q.amount)),
            Ok((3, 3))
        );
    }
}
