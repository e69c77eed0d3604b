//! One player's position in one market: shares held per outcome, what they cost, and the
//! profit or loss already realized by selling.
//!
//! # Average cost
//!
//! Each outcome's holding carries a cost basis: the debits (fees included) of the shares
//! still held. A sale of `n` of `h` held shares releases `floor(basis × n / h)` of it —
//! all of it when the last share goes — and realizes `proceeds − released`, where the
//! proceeds are net of the sale's fee. Hence at all times
//! `net cost = total debits − total credits = basis(YES) + basis(NO) − realized P&L`.

use crate::{Outcome, Pool, Quote, Side};

/// Shares of one outcome and the cost basis of exactly those shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Holding {
    /// Share units held (each pays one minor unit if the outcome wins).
    pub shares: i64,
    /// Minor units the held shares cost by average cost, fees included.
    pub cost_basis: i64,
}

/// A player's position in a market; starts empty and changes only by applying quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Position {
    yes: Holding,
    no: Holding,
    realized_pnl: i64,
}

/// Why a trade cannot be applied to a position or a stored one is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A player can only sell shares they hold.
    #[error("cannot sell {requested} {} shares; {held} held", outcome.as_str())]
    InsufficientShares {
        /// The outcome sold.
        outcome: Outcome,
        /// Shares held.
        held: i64,
        /// Shares the sale needs.
        requested: i64,
    },
    /// A holding's shares and cost basis are never negative.
    #[error("a {} holding must not be negative", outcome.as_str())]
    NegativeHolding {
        /// Which holding.
        outcome: Outcome,
    },
    /// The totals left the range of an `i64`: refused rather than wrapped.
    #[error("the position's totals overflow")]
    Overflow,
}

impl Position {
    /// Rebuilds a stored position, checking that holdings are not negative.
    pub fn from_parts(yes: Holding, no: Holding, realized_pnl: i64) -> Result<Self, PositionError> {
        for (outcome, holding) in [(Outcome::Yes, yes), (Outcome::No, no)] {
            if holding.shares < 0 || holding.cost_basis < 0 {
                return Err(PositionError::NegativeHolding { outcome });
            }
        }
        Self { yes, no, realized_pnl }.checked()
    }

    /// The holding of `outcome`.
    pub fn holding(&self, outcome: Outcome) -> Holding {
        match outcome {
            Outcome::Yes => self.yes,
            Outcome::No => self.no,
        }
    }

    /// Profit (positive) or loss taken by sales so far, by average cost.
    pub fn realized_pnl(&self) -> i64 {
        self.realized_pnl
    }

    /// Total debits minus total credits in this market; negative after profitable sales.
    /// What a VOID resolution refunds (when positive).
    pub fn net_cost(&self) -> i64 {
        self.yes.cost_basis + self.no.cost_basis - self.realized_pnl
    }

    /// The held shares valued at the pool's current prices, `floor(shares × price)` per
    /// outcome, so a mark never overstates what the player has.
    pub fn mark_value(&self, pool: &Pool) -> i64 {
        [Outcome::Yes, Outcome::No]
            .into_iter()
            .map(|outcome| pool.price(outcome).value_of(self.holding(outcome).shares))
            .sum()
    }

    /// Refuses selling more `outcome` shares than held: a player sells only what they
    /// have, checked before a sale is priced so the refusal names the holding.
    pub fn check_sale(&self, outcome: Outcome, shares: i64) -> Result<(), PositionError> {
        let held = self.holding(outcome).shares;
        if shares > held {
            Err(PositionError::InsufficientShares {
                outcome,
                held,
                requested: shares,
            })
        } else {
            Ok(())
        }
    }

    /// The position after a quoted trade: a buy adds shares and their debit to the cost
    /// basis; a sale removes shares and realizes proceeds against their average cost.
    pub fn apply(&self, quote: &Quote) -> Result<Self, PositionError> {
        let holding = self.holding(quote.outcome);
        let (holding, realized_pnl) = match quote.side {
            Side::Buy => (
                Holding {
                    shares: add(holding.shares, quote.shares)?,
                    cost_basis: add(holding.cost_basis, quote.amount)?,
                },
                self.realized_pnl,
            ),
            Side::Sell => {
                self.check_sale(quote.outcome, quote.shares)?;
                let released = released_basis(holding, quote.shares);
                (
                    Holding {
                        shares: holding.shares - quote.shares,
                        cost_basis: holding.cost_basis - released,
                    },
                    add(self.realized_pnl, quote.amount - released)?,
                )
            }
        };
        let mut next = Self { realized_pnl, ..*self };
        match quote.outcome {
            Outcome::Yes => next.yes = holding,
            Outcome::No => next.no = holding,
        }
        next.checked()
    }

    /// Refuses totals whose net cost would not fit in an `i64`, so `net_cost` never
    /// overflows.
    fn checked(self) -> Result<Self, PositionError> {
        self.yes
            .cost_basis
            .checked_add(self.no.cost_basis)
            .and_then(|basis| basis.checked_sub(self.realized_pnl))
            .map(|_| self)
            .ok_or(PositionError::Overflow)
    }
}

/// `floor(basis × sold / held)`, the whole basis when everything is sold.
fn released_basis(holding: Holding, sold: i64) -> i64 {
    let released = i128::from(holding.cost_basis) * i128::from(sold) / i128::from(holding.shares.max(1));
    // At most `cost_basis` because `sold ≤ shares`, so it fits in an i64.
    released as i64
}

fn add(left: i64, right: i64) -> Result<i64, PositionError> {
    left.checked_add(right).ok_or(PositionError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FeeRate, Liquidity, quote_buy_shares, quote_sell};

    fn trade(side: Side, outcome: Outcome, shares: i64, amount: i64) -> Quote {
        let pool = Pool::new(Liquidity::new(100).unwrap());
        Quote {
            outcome,
            side,
            shares,
            amount,
            fee: 0,
            price_before: pool.price(outcome),
            price_after: pool.price(outcome),
            pool_after: pool,
        }
    }

    #[test]
    fn buys_accumulate_shares_and_basis() {
        let position = Position::default()
            .apply(&trade(Side::Buy, Outcome::Yes, 10, 6))
            .and_then(|p| p.apply(&trade(Side::Buy, Outcome::Yes, 10, 8)))
            .and_then(|p| p.apply(&trade(Side::Buy, Outcome::No, 4, 2)))
            .unwrap();
        assert_eq!(
            position.holding(Outcome::Yes),
            Holding {
                shares: 20,
                cost_basis: 14
            }
        );
        assert_eq!(position.holding(Outcome::No).shares, 4);
        assert_eq!(position.net_cost(), 16);
        assert_eq!(position.realized_pnl(), 0);
    }

    #[test]
    fn sales_realize_against_average_cost() {
        let bought = Position::default()
            .apply(&trade(Side::Buy, Outcome::Yes, 3, 10))
            .unwrap();
        // One of three shares releases floor(10/3) = 3 of basis; sold for 5: +2.
        let partly = bought.apply(&trade(Side::Sell, Outcome::Yes, 1, 5)).unwrap();
        assert_eq!(
            partly.holding(Outcome::Yes),
            Holding {
                shares: 2,
                cost_basis: 7
            }
        );
        assert_eq!(partly.realized_pnl(), 2);
        assert_eq!(partly.net_cost(), 5);
        // The last two release the remaining 7; sold for 20: +13, net cost −15.
        let closed = partly.apply(&trade(Side::Sell, Outcome::Yes, 2, 20)).unwrap();
        assert_eq!(closed.holding(Outcome::Yes), Holding::default());
        assert_eq!(closed.realized_pnl(), 15);
        assert_eq!(closed.net_cost(), -15);
    }

    #[test]
    fn cannot_sell_more_than_held() {
        let position = Position::default().apply(&trade(Side::Buy, Outcome::No, 3, 2)).unwrap();
        assert_eq!(
            position.apply(&trade(Side::Sell, Outcome::No, 4, 1)),
            Err(PositionError::InsufficientShares {
                outcome: Outcome::No,
                held: 3,
                requested: 4
            })
        );
        assert!(matches!(
            position.apply(&trade(Side::Sell, Outcome::Yes, 1, 1)),
            Err(PositionError::InsufficientShares { held: 0, .. })
        ));
    }

    #[test]
    fn totals_refuse_to_overflow() {
        let rich = Position::from_parts(
            Holding {
                shares: 1,
                cost_basis: i64::MAX - 1,
            },
            Holding::default(),
            0,
        )
        .unwrap();
        assert_eq!(
            rich.apply(&trade(Side::Buy, Outcome::Yes, 1, 2)),
            Err(PositionError::Overflow)
        );
        assert_eq!(
            rich.apply(&trade(Side::Buy, Outcome::No, 1, 2)),
            Err(PositionError::Overflow)
        );
    }

    #[test]
    fn stored_holdings_are_not_negative() {
        let negative = Holding {
            shares: -1,
            cost_basis: 0,
        };
        assert_eq!(
            Position::from_parts(Holding::default(), negative, 0),
            Err(PositionError::NegativeHolding { outcome: Outcome::No })
        );
        let negative_basis = Holding {
            shares: 0,
            cost_basis: -1,
        };
        assert_eq!(
            Position::from_parts(negative_basis, Holding::default(), 0),
            Err(PositionError::NegativeHolding { outcome: Outcome::Yes })
        );
        let huge = Holding {
            shares: 1,
            cost_basis: i64::MAX,
        };
        assert_eq!(
            Position::from_parts(huge, Holding::default(), -1),
            Err(PositionError::Overflow)
        );
    }

    #[test]
    fn mark_value_floors_each_outcome() {
        let liquidity = Liquidity::new(1_000).unwrap();
        let pool = Pool::from_parts(liquidity, 1_000, 0).unwrap();
        // YES at 0.731059, NO at 0.268941.
        let position = Position::default()
            .apply(&trade(Side::Buy, Outcome::Yes, 1_000, 1))
            .and_then(|p| p.apply(&trade(Side::Buy, Outcome::No, 10, 1)))
            .unwrap();
        assert_eq!(position.mark_value(&pool), 731 + 2);
    }

    #[test]
    fn real_quotes_round_trip_to_a_loss() {
        let pool = Pool::new(Liquidity::new(1_000).unwrap());
        let fee = FeeRate::from_bps(50).unwrap();
        let buy = quote_buy_shares(&pool, Outcome::No, 500, fee).unwrap();
        let sell = quote_sell(&buy.pool_after, Outcome::No, 500, fee).unwrap();
        let position = Position::default().apply(&buy).and_then(|p| p.apply(&sell)).unwrap();
        assert_eq!(position.holding(Outcome::No), Holding::default());
        assert_eq!(position.net_cost(), buy.amount - sell.amount);
        assert!(position.net_cost() > 0);
        assert_eq!(position.realized_pnl(), -position.net_cost());
    }
}
