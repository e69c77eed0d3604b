//! The `f64` cost change against the reference: its error stays below a quarter of the
//! rounding margin over the whole input range, the headroom the margin's proof claims.

use proptest::prelude::*;

use super::exact_lmsr::{self, Exact};
use super::strategies::{liquidity, size};
use crate::{Liquidity, Pool, lmsr};

/// A quarter of the rounding margin of 2^-6.
fn tolerance() -> Exact {
    Exact::from_dyadic(1, 8)
}

fn float_error(from: &Pool, to: &Pool) -> Exact {
    let change = lmsr::cost_change(from, to);
    let computed = Exact::from_int(change.whole) + Exact::from_f64(change.fraction);
    (computed - (exact_lmsr::cost(to) - exact_lmsr::cost(from))).abs()
}

/// Two states of one pool, anywhere within the bounds.
fn two_states() -> impl Strategy<Value = (Pool, Pool)> {
    liquidity().prop_flat_map(|liquidity| {
        let quantity = prop_oneof![Just(0i64), size(liquidity.minor_units())];
        [quantity.clone(), quantity.clone(), quantity.clone(), quantity].prop_map(
            move |[from_yes, from_no, to_yes, to_no]| {
                (
                    Pool::from_parts(liquidity, from_yes, from_no).unwrap(),
                    Pool::from_parts(liquidity, to_yes, to_no).unwrap(),
                )
            },
        )
    })
}

/// Two states at the largest liquidity, where the float error is largest; the bound
/// on quantities is ten `b`, so both states are where the cost curve bends.
fn two_states_at_largest_liquidity() -> impl Strategy<Value = (Pool, Pool)> {
    let liquidity = Liquidity::new(Liquidity::MAX).unwrap();
    let quantity = 0i64..=Pool::MAX_OUTSTANDING;
    [quantity.clone(), quantity.clone(), quantity.clone(), quantity].prop_map(
        move |[from_yes, from_no, to_yes, to_no]| {
            (
                Pool::from_parts(liquidity, from_yes, from_no).unwrap(),
                Pool::from_parts(liquidity, to_yes, to_no).unwrap(),
            )
        },
    )
}

proptest! {
    #[test]
    fn anywhere_in_bounds((from, to) in two_states()) {
        prop_assert!(float_error(&from, &to) <= tolerance());
    }

    #[test]
    fn at_the_largest_liquidity((from, to) in two_states_at_largest_liquidity()) {
        prop_assert!(float_error(&from, &to) <= tolerance());
    }
}
