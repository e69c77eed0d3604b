//! (d) One player trading at random and finally selling everything back never ends with
//! more money than they started with, loses at most the fees plus two minor units a
//! trade, and leaves the pool exactly where it was, so the maker's cash never falls.

use proptest::prelude::*;

use super::strategies::{fee, outcome, pool};
use crate::{FeeRate, Outcome, Pool, Position, Quote, Side, quote_buy_amount, quote_buy_shares, quote_sell};

/// What the player asks for: buy shares, buy for an amount, or sell a part (per mille)
/// of a holding.
#[derive(Debug, Clone, Copy)]
enum Order {
    BuyShares(Outcome, i64),
    BuyAmount(Outcome, i64),
    Sell(Outcome, i64),
}

fn order(b: i64) -> impl Strategy<Value = Order> {
    let size = prop_oneof![1i64..=100, 1i64..=b.saturating_mul(5)];
    prop_oneof![
        (outcome(), size.clone()).prop_map(|(o, s)| Order::BuyShares(o, s)),
        (outcome(), size).prop_map(|(o, a)| Order::BuyAmount(o, a)),
        (outcome(), 1i64..=1_000).prop_map(|(o, p)| Order::Sell(o, p)),
    ]
}

fn pool_and_orders() -> impl Strategy<Value = (Pool, Vec<Order>)> {
    pool().prop_flat_map(|pool| {
        let b = pool.liquidity().minor_units();
        (Just(pool), prop::collection::vec(order(b), 1..12))
    })
}

/// The player's side of the books.
#[derive(Debug, Default)]
struct Player {
    position: Position,
    cash: i64,
    fees: i64,
    trades: i64,
}

impl Player {
    /// Prices an order; `None` when the pool or the position refuses it.
    fn quote(&self, pool: &Pool, order: Order, fee: FeeRate) -> Option<Quote> {
        let quote = match order {
            Order::BuyShares(outcome, shares) => quote_buy_shares(pool, outcome, shares, fee),
            Order::BuyAmount(outcome, amount) => quote_buy_amount(pool, outcome, amount, fee),
            Order::Sell(outcome, per_mille) => {
                let held = self.position.holding(outcome).shares;
                quote_sell(pool, outcome, (held * per_mille / 1_000).max(1), fee)
            }
        };
        quote.ok().filter(|quote| self.position.apply(quote).is_ok())
    }

    fn settle(&mut self, quote: &Quote, pool: &mut Pool) -> Result<(), TestCaseError> {
        self.position = self.position.apply(quote).unwrap();
        *pool = quote.pool_after;
        self.cash += match quote.side {
            Side::Buy => -quote.amount,
            Side::Sell => quote.amount,
        };
        self.fees += quote.fee;
        self.trades += 1;
        prop_assert_eq!(self.cash, -self.position.net_cost());
        Ok(())
    }
}

proptest! {
    #[test]
    fn a_round_trip_never_profits((start, orders) in pool_and_orders(), fee in fee()) {
        let mut pool = start;
        let mut player = Player::default();
        for order in orders {
            if let Some(quote) = player.quote(&pool, order, fee) {
                player.settle(&quote, &mut pool)?;
            }
        }
        for outcome in [Outcome::Yes, Outcome::No] {
            let held = player.position.holding(outcome).shares;
            if held > 0 {
                player.settle(&quote_sell(&pool, outcome, held, fee).unwrap(), &mut pool)?;
            }
        }
        prop_assert_eq!(pool, start);
        let loss = -player.cash;
        prop_assert!(loss >= 0, "the player gained {}", player.cash);
        prop_assert!(
            loss <= player.fees + 2 * player.trades,
            "lost {} with {} in fees over {} trades", loss, player.fees, player.trades
        );
        prop_assert_eq!(player.position.realized_pnl(), player.cash);
    }
}
