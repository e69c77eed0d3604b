//! Random inputs spanning the crate's whole input range: liquidity over twelve orders
//! of magnitude, quantities near even and far apart, trades from one share to the
//! pool's bound, every fee rate.

use proptest::prelude::*;

use crate::{FeeRate, Liquidity, Outcome, Pool};

/// `b` from 1 to [`Liquidity::MAX`], every order of magnitude equally likely-ish.
pub(crate) fn liquidity() -> impl Strategy<Value = Liquidity> {
    prop_oneof![
        1i64..=100,
        100i64..=100_000,
        100_000i64..=100_000_000,
        100_000_000i64..=Liquidity::MAX,
    ]
    .prop_map(|b| Liquidity::new(b).unwrap())
}

/// A quantity or trade size measured against `b`: within one `b`, within thirty (where
/// prices get extreme), or anywhere up to the pool's bound.
pub(crate) fn size(b: i64) -> impl Strategy<Value = i64> {
    let max = Pool::MAX_OUTSTANDING;
    prop_oneof![1i64..=b.min(max), 1i64..=b.saturating_mul(30).min(max), 1i64..=max,]
}

/// A pool anywhere within the bounds.
pub(crate) fn pool() -> impl Strategy<Value = Pool> {
    liquidity().prop_flat_map(|liquidity| {
        let b = liquidity.minor_units();
        let quantity = prop_oneof![Just(0i64), size(b)];
        (quantity.clone(), quantity).prop_map(move |(yes, no)| Pool::from_parts(liquidity, yes, no).unwrap())
    })
}

/// A fee rate, with the edges 0 and 10% often.
pub(crate) fn fee() -> impl Strategy<Value = FeeRate> {
    prop_oneof![Just(0u16), 0u16..=FeeRate::MAX_BPS, Just(FeeRate::MAX_BPS)]
        .prop_map(|bps| FeeRate::from_bps(bps).unwrap())
}

/// Either outcome.
pub(crate) fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![Just(Outcome::Yes), Just(Outcome::No)]
}

/// A pool with a trade size scaled to its liquidity.
pub(crate) fn pool_and_size() -> impl Strategy<Value = (Pool, i64)> {
    pool().prop_flat_map(|pool| (Just(pool), size(pool.liquidity().minor_units())))
}

/// A pool with shares of both outcomes outstanding (so there is something to sell) and
/// a trade size scaled to its liquidity.
pub(crate) fn sold_pool_and_size() -> impl Strategy<Value = (Pool, i64)> {
    liquidity().prop_flat_map(|liquidity| {
        let b = liquidity.minor_units();
        (size(b), size(b), size(b))
            .prop_map(move |(yes, no, size)| (Pool::from_parts(liquidity, yes, no).unwrap(), size))
    })
}
