//! (f) The LMSR bounded-loss property in integer money: several players trade a fresh
//! pool at random; once the market resolves YES or NO, everything the winners redeem is
//! covered by the maker's cash plus its subsidy `b·ln 2`. For VOID, the maker pays back
//! exactly what the players who took money out took.

use proptest::prelude::*;

use super::exact_lmsr::{self, Exact};
use super::strategies::{fee, liquidity, outcome};
use crate::{Outcome, Pool, Position, Resolution, Side, quote_buy_shares, quote_sell, redemption};

/// One player's order: which player, which outcome, buy (`true`) or sell, and a size:
/// the shares to buy, or (modulo 1000, plus one) the per mille of the holding to sell.
type Order = (usize, Outcome, bool, i64);

const PLAYERS: usize = 3;

fn orders(b: i64) -> impl Strategy<Value = Vec<Order>> {
    let size = prop_oneof![1i64..=100, 1i64..=b.saturating_mul(5)];
    prop::collection::vec((0..PLAYERS, outcome(), any::<bool>(), size), 1..16)
}

fn resolution() -> impl Strategy<Value = Resolution> {
    prop_oneof![Just(Resolution::Yes), Just(Resolution::No), Just(Resolution::Void)]
}

proptest! {
    #[test]
    fn payouts_stay_within_cash_and_subsidy(
        (liquidity, orders) in liquidity().prop_flat_map(|l| (Just(l), orders(l.minor_units()))),
        fee in fee(),
        resolution in resolution(),
    ) {
        let start = Pool::new(liquidity);
        let mut pool = start;
        let mut positions = [Position::default(); PLAYERS];
        let mut maker_cash = 0i64;
        for (player, outcome, buy, size) in orders {
            let held = positions[player].holding(outcome).shares;
            let quote = if buy {
                quote_buy_shares(&pool, outcome, size, fee)
            } else {
                quote_sell(&pool, outcome, (held * (size % 1_000 + 1) / 1_000).max(1), fee)
            };
            let Ok(quote) = quote else { continue };
            let Ok(position) = positions[player].apply(&quote) else { continue };
            positions[player] = position;
            pool = quote.pool_after;
            maker_cash += match quote.side {
                Side::Buy => quote.amount,
                Side::Sell => -quote.amount,
            };
        }
        let net_costs: i64 = positions.iter().map(Position::net_cost).sum();
        prop_assert_eq!(maker_cash, net_costs);
        let payouts: i64 = positions.iter().map(|p| redemption(p, resolution)).sum();
        match resolution {
            Resolution::Yes | Resolution::No => {
                let winner = if resolution == Resolution::Yes { Outcome::Yes } else { Outcome::No };
                prop_assert_eq!(payouts, pool.outstanding(winner));
                let subsidy = exact_lmsr::cost(&start);
                prop_assert!(Exact::from_int(payouts - maker_cash) <= subsidy);
            }
            Resolution::Void => {
                let taken_out: i64 = positions.iter().map(|p| (-p.net_cost()).max(0)).sum();
                prop_assert_eq!(maker_cash - payouts, -taken_out);
            }
        }
    }
}
