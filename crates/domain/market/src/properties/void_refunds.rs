//! (g) The VOID refund rule as players see it, checked against a ledger kept apart from
//! positions: for any sequence of trades, a voided market pays each player what they paid
//! in (fees included) minus what they took out, never less than zero. So nobody ends a
//! voided market down, nobody is paid more than they paid in, and a player who never sold
//! gets back exactly every debit.

use proptest::prelude::*;

use super::strategies::{fee, liquidity, outcome};
use crate::{Outcome, Pool, Position, Resolution, Side, quote_buy_shares, quote_sell, redemption};

const PLAYERS: usize = 4;

/// One order: which player, which outcome, buy (`true`) or sell, and a size (the shares
/// to buy, or the per mille of the holding to sell).
type Order = (usize, Outcome, bool, i64);

fn orders(b: i64) -> impl Strategy<Value = Vec<Order>> {
    let size = prop_oneof![1i64..=100, 1i64..=b.saturating_mul(5)];
    prop::collection::vec((0..PLAYERS, outcome(), any::<bool>(), size), 1..24)
}

/// What a player's wallet saw on one market: every debit and every credit.
#[derive(Debug, Default, Clone, Copy)]
struct Ledger {
    paid_in: i64,
    taken_out: i64,
    sold: bool,
}

proptest! {
    #[test]
    fn void_pays_back_what_each_player_put_in_less_what_they_took_out(
        (liquidity, orders) in liquidity().prop_flat_map(|l| (Just(l), orders(l.minor_units()))),
        fee in fee(),
    ) {
        let mut pool = Pool::new(liquidity);
        let mut positions = [Position::default(); PLAYERS];
        let mut ledgers = [Ledger::default(); PLAYERS];
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
            let ledger = &mut ledgers[player];
            match quote.side {
                Side::Buy => ledger.paid_in += quote.amount,
                Side::Sell => {
                    ledger.taken_out += quote.amount;
                    ledger.sold = true;
                }
            }
        }
        for (position, ledger) in positions.iter().zip(ledgers) {
            let refund = redemption(position, Resolution::Void);
            prop_assert_eq!(refund, (ledger.paid_in - ledger.taken_out).max(0));
            prop_assert!(ledger.taken_out + refund >= ledger.paid_in, "a player ends a void market down");
            prop_assert!(refund <= ledger.paid_in, "a refund exceeds what was paid in");
            if !ledger.sold {
                prop_assert_eq!(refund, ledger.paid_in);
            }
        }
    }
}
