//! (c) Buying by amount returns the largest share count whose debit fits, priced exactly
//! as buying that many shares is, and never debits more than offered.

use proptest::prelude::*;

use super::exact_lmsr::{self, Exact};
use super::strategies::{fee, outcome, pool_and_size};
use crate::{Pool, TradeError, quote_buy_amount, quote_buy_shares};

proptest! {
    #[test]
    fn takes_the_most_shares_that_fit(
        (pool, amount) in pool_and_size(),
        outcome in outcome(),
        fee in fee(),
    ) {
        let debit = |shares: i64| quote_buy_shares(&pool, outcome, shares, fee).map(|q| q.amount);
        match quote_buy_amount(&pool, outcome, amount, fee) {
            Ok(quote) => {
                prop_assert!(quote.amount <= amount);
                prop_assert_eq!(Ok(quote), quote_buy_shares(&pool, outcome, quote.shares, fee));
                let exact = exact_lmsr::cost(&quote.pool_after) - exact_lmsr::cost(&pool);
                prop_assert!(Exact::from_int(quote.gross()) >= exact);
                let capacity = Pool::MAX_OUTSTANDING - pool.outstanding(outcome);
                // One, two or three more shares do not fit (or break the pool's bound);
                // up to three fewer do.
                for more in 1..=3 {
                    let shares = quote.shares + more;
                    if shares <= capacity {
                        prop_assert!(debit(shares).unwrap() > amount);
                    }
                }
                for fewer in 1..=3.min(quote.shares - 1) {
                    prop_assert!(debit(quote.shares - fewer).unwrap() <= amount);
                }
            }
            Err(TradeError::AmountBelowOneShare { amount: offered, minimum }) => {
                prop_assert_eq!(offered, amount);
                prop_assert_eq!(Ok(minimum), debit(1));
                prop_assert!(minimum > amount);
            }
            Err(other) => {
                prop_assert_eq!(pool.outstanding(outcome), Pool::MAX_OUTSTANDING, "{}", other);
            }
        }
    }
}
