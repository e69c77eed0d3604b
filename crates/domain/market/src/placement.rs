//! What happens to a trade once the player's wallet has answered.
//!
//! A buy is debited first and placed after (so no price can be moved by shares nobody
//! paid for). When the debit is applied, the buy is placed at the pool as it is then:
//! an order for a number of shares is placed only if those shares cost at most what was
//! debited; an order for an amount gets the most shares the debited amount buys. A buy
//! that cannot be placed (the market stopped trading, or the price moved past what was
//! debited) is refused, and its debit is given back by a buy compensation.
//!
//! A sale is taken from the pool and the position first and credited after; a sale whose
//! credit is definitely refused is unwound: its shares go back to the pool.

use crate::{
    FeeRate, MarketStatus, OrderKind, Outcome, Pool, PoolError, Quote, TradeError, quote_buy_amount, quote_buy_shares,
};

/// Why a debited buy is not placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlacementRefusal {
    /// The market stopped trading while the wallet was being debited.
    #[error("the market is no longer open for trading")]
    MarketNotOpen,
    /// The ordered shares now cost more than was debited.
    #[error("the price moved: the order now costs {cost}, {debited} was debited")]
    PriceMoved {
        /// What the order costs now.
        cost: i64,
        /// What the wallet debited.
        debited: i64,
    },
    /// The pool cannot take the order any more (its bounds, or no share is affordable).
    #[error("the order cannot be priced any more: {0}")]
    Unpriceable(#[from] TradeError),
}

impl PlacementRefusal {
    /// Stable code for the trade's failure reason.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::MarketNotOpen => "market_not_open",
            Self::PriceMoved { .. } => "price_moved",
            Self::Unpriceable(_) => "not_placeable",
        }
    }
}

/// The order of a debited buy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DebitedBuy {
    /// YES or NO.
    pub outcome: Outcome,
    /// How the player sized it.
    pub order_kind: OrderKind,
    /// The shares ordered (by shares) or quoted when debited (by amount).
    pub shares: i64,
    /// What the wallet debited.
    pub debited: i64,
}

/// Places an applied buy debit on `pool`: the quote to store (its `amount` is what was
/// debited, any rounding surplus included), or why it cannot be placed.
pub fn place_debited_buy(
    status: MarketStatus,
    pool: &Pool,
    buy: DebitedBuy,
    fee: FeeRate,
) -> Result<Quote, PlacementRefusal> {
    status.ensure_trading().map_err(|_| PlacementRefusal::MarketNotOpen)?;
    let quote = match buy.order_kind {
        OrderKind::Shares => {
            let quote = quote_buy_shares(pool, buy.outcome, buy.shares, fee)?;
            if quote.amount > buy.debited {
                return Err(PlacementRefusal::PriceMoved {
                    cost: quote.amount,
                    debited: buy.debited,
                });
            }
            quote
        }
        OrderKind::Amount => match quote_buy_amount(pool, buy.outcome, buy.debited, fee) {
            Ok(quote) => quote,
            Err(TradeError::AmountBelowOneShare { minimum, .. }) => {
                return Err(PlacementRefusal::PriceMoved {
                    cost: minimum,
                    debited: buy.debited,
                });
            }
            Err(other) => return Err(other.into()),
        },
    };
    Ok(Quote {
        amount: buy.debited,
        ..quote
    })
}

/// The pool with a sale's shares given back, for a sale whose credit was refused.
pub fn unwind_sale(pool: &Pool, sale: &Quote) -> Result<Pool, PoolError> {
    pool.with_change(sale.outcome, sale.shares)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Liquidity, Resolution, Side, quote_sell};

    fn pool(yes: i64, no: i64) -> Pool {
        Pool::from_parts(Liquidity::new(1_000).unwrap(), yes, no).unwrap()
    }

    fn fee() -> FeeRate {
        FeeRate::from_bps(100).unwrap()
    }

    fn by_shares(shares: i64, debited: i64) -> DebitedBuy {
        DebitedBuy {
            outcome: Outcome::Yes,
            order_kind: OrderKind::Shares,
            shares,
            debited,
        }
    }

    #[test]
    fn a_share_order_is_placed_when_the_price_has_not_moved_against_it() {
        let quoted = quote_buy_shares(&pool(0, 0), Outcome::Yes, 1_000, fee()).unwrap();
        let placed =
            place_debited_buy(MarketStatus::Open, &pool(0, 0), by_shares(1_000, quoted.amount), fee()).unwrap();
        assert_eq!(placed, quoted);
        // Cheaper now (someone bought NO): placed, and the debit stands as it is.
        let cheaper = place_debited_buy(
            MarketStatus::Open,
            &pool(0, 500),
            by_shares(1_000, quoted.amount),
            fee(),
        )
        .unwrap();
        assert_eq!(
            (cheaper.shares, cheaper.amount, cheaper.side),
            (1_000, quoted.amount, Side::Buy)
        );
        assert_eq!(cheaper.pool_after, pool(1_000, 500));
    }

    #[test]
    fn a_share_order_is_refused_when_the_price_moved_past_the_debit() {
        let quoted = quote_buy_shares(&pool(0, 0), Outcome::Yes, 1_000, fee()).unwrap();
        let refused = place_debited_buy(
            MarketStatus::Open,
            &pool(500, 0),
            by_shares(1_000, quoted.amount),
            fee(),
        );
        assert!(
            matches!(refused, Err(PlacementRefusal::PriceMoved { debited, cost }) if debited == quoted.amount && cost > debited)
        );
        assert_eq!(refused.unwrap_err().code(), "price_moved");
    }

    #[test]
    fn an_amount_order_gets_what_the_debit_buys_now() {
        let order = DebitedBuy {
            order_kind: OrderKind::Amount,
            ..by_shares(1_000, 628)
        };
        let even = place_debited_buy(MarketStatus::Open, &pool(0, 0), order, fee()).unwrap();
        let dearer = place_debited_buy(MarketStatus::Open, &pool(500, 0), order, fee()).unwrap();
        let most = quote_buy_amount(&pool(0, 0), Outcome::Yes, 628, fee()).unwrap();
        assert_eq!((even.shares, even.amount), (most.shares, 628));
        assert!(even.shares >= 1_000);
        assert!(dearer.shares < 1_000 && dearer.amount == 628);
        let tiny = DebitedBuy { debited: 1, ..order };
        let refused = place_debited_buy(MarketStatus::Open, &pool(9_000, 0), tiny, fee());
        assert!(matches!(refused, Err(PlacementRefusal::PriceMoved { .. })));
    }

    #[test]
    fn nothing_is_placed_on_a_market_that_stopped_trading() {
        for status in [MarketStatus::Closed, MarketStatus::Resolved(Resolution::Void)] {
            assert_eq!(
                place_debited_buy(status, &pool(0, 0), by_shares(10, 1_000), fee()),
                Err(PlacementRefusal::MarketNotOpen)
            );
        }
    }

    #[test]
    fn unwinding_a_sale_gives_its_shares_back() {
        let sale = quote_sell(&pool(1_000, 0), Outcome::Yes, 400, fee()).unwrap();
        assert_eq!(unwind_sale(&sale.pool_after, &sale), Ok(pool(1_000, 0)));
    }
}
