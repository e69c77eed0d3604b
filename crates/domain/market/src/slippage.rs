//! Slippage limits: the player states the worst amount they accept, and a quote that the
//! pool's movement since they looked has made worse is refused. A quote also proposes
//! the limit its order should carry: the quoted amount widened by a [`SlippageTolerance`].

use crate::{Quote, Side};

/// Why a quote is refused against the player's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SlippageError {
    /// A buy would debit more than the player's maximum cost.
    #[error("the buy costs {cost}, above the maximum cost {max_cost}")]
    CostAboveMaximum {
        /// The quoted debit, fee included.
        cost: i64,
        /// The player's limit.
        max_cost: i64,
    },
    /// A sale would credit less than the player's minimum proceeds.
    #[error("the sale pays {proceeds}, below the minimum proceeds {min_proceeds}")]
    ProceedsBelowMinimum {
        /// The quoted credit, fee deducted.
        proceeds: i64,
        /// The player's limit.
        min_proceeds: i64,
    },
    /// A buy limit was checked against a sale or the other way round: a caller's bug,
    /// refused rather than silently passed.
    #[error("a {} limit does not apply to a {} quote", expected.as_str(), actual.as_str())]
    WrongSide {
        /// The side the limit is for.
        expected: Side,
        /// The side of the quote.
        actual: Side,
    },
}

/// Accepts a buy quote only if its debit (fee included) is at most `max_cost`.
pub fn check_max_cost(quote: &Quote, max_cost: i64) -> Result<(), SlippageError> {
    ensure_side(quote, Side::Buy)?;
    if quote.amount > max_cost {
        Err(SlippageError::CostAboveMaximum {
            cost: quote.amount,
            max_cost,
        })
    } else {
        Ok(())
    }
}

/// Accepts a sale quote only if its credit (fee deducted) is at least `min_proceeds`.
pub fn check_min_proceeds(quote: &Quote, min_proceeds: i64) -> Result<(), SlippageError> {
    ensure_side(quote, Side::Sell)?;
    if quote.amount < min_proceeds {
        Err(SlippageError::ProceedsBelowMinimum {
            proceeds: quote.amount,
            min_proceeds,
        })
    } else {
        Ok(())
    }
}

/// How much worse than quoted an order may turn out before it is refused, in basis
/// points of the quoted amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SlippageTolerance(u16);

impl SlippageTolerance {
    /// The hosted app's tolerance: 2%, room for a few other players' trades between the
    /// quote and the order without letting a large move through unnoticed.
    pub const DEFAULT: Self = Self(200);

    /// The widest accepted tolerance: 50%.
    pub const MAX_BPS: u16 = 5_000;

    /// A tolerance of `bps` basis points, if at most [`SlippageTolerance::MAX_BPS`].
    pub fn from_bps(bps: u16) -> Option<Self> {
        (bps <= Self::MAX_BPS).then_some(Self(bps))
    }

    /// The tolerance in basis points.
    pub fn bps(self) -> u16 {
        self.0
    }

    /// The limit an order priced by `quote` carries: a buy's maximum cost is the quoted
    /// debit plus the tolerance (rounded up), a sale's minimum proceeds the quoted credit
    /// minus it (rounded up, never below zero). [`check_max_cost`] and
    /// [`check_min_proceeds`] accept the quote itself under its own limit.
    pub fn limit_for(self, quote: &Quote) -> i64 {
        let margin = (i128::from(quote.amount) * i128::from(self.0) + 9_999) / 10_000;
        let margin = i64::try_from(margin).unwrap_or(i64::MAX);
        match quote.side {
            Side::Buy => quote.amount.saturating_add(margin),
            Side::Sell => quote.amount.saturating_sub(margin).max(0),
        }
    }
}

fn ensure_side(quote: &Quote, expected: Side) -> Result<(), SlippageError> {
    if quote.side == expected {
        Ok(())
    } else {
        Err(SlippageError::WrongSide {
            expected,
            actual: quote.side,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FeeRate, Liquidity, Outcome, Pool, quote_buy_shares, quote_sell};

    fn quotes() -> (Quote, Quote) {
        let pool = Pool::new(Liquidity::new(1_000).unwrap());
        let buy = quote_buy_shares(&pool, Outcome::Yes, 1_000, FeeRate::ZERO).unwrap();
        let sell = quote_sell(&buy.pool_after, Outcome::Yes, 1_000, FeeRate::ZERO).unwrap();
        (buy, sell)
    }

    #[test]
    fn max_cost_is_inclusive() {
        let (buy, _) = quotes();
        assert_eq!(buy.amount, 621);
        assert_eq!(check_max_cost(&buy, 621), Ok(()));
        assert_eq!(
            check_max_cost(&buy, 620),
            Err(SlippageError::CostAboveMaximum {
                cost: 621,
                max_cost: 620
            })
        );
    }

    #[test]
    fn min_proceeds_is_inclusive() {
        let (_, sell) = quotes();
        assert_eq!(sell.amount, 620);
        assert_eq!(check_min_proceeds(&sell, 620), Ok(()));
        assert_eq!(
            check_min_proceeds(&sell, 621),
            Err(SlippageError::ProceedsBelowMinimum {
                proceeds: 620,
                min_proceeds: 621
            })
        );
    }

    #[test]
    fn a_proposed_limit_widens_the_quote_by_the_tolerance() {
        let (buy, sell) = quotes();
        let tolerance = SlippageTolerance::DEFAULT;
        assert_eq!(tolerance.limit_for(&buy), 621 + 13);
        assert_eq!(tolerance.limit_for(&sell), 620 - 13);
        assert_eq!(check_max_cost(&buy, tolerance.limit_for(&buy)), Ok(()));
        assert_eq!(check_min_proceeds(&sell, tolerance.limit_for(&sell)), Ok(()));
        let none = SlippageTolerance::from_bps(0).expect("zero");
        assert_eq!(none.limit_for(&buy), buy.amount);
        assert_eq!(SlippageTolerance::from_bps(5_001), None);
        let widest = SlippageTolerance::from_bps(SlippageTolerance::MAX_BPS).expect("max");
        assert_eq!(widest.limit_for(&sell), 310);
    }

    proptest::proptest! {
        #[test]
        fn a_quote_always_passes_its_own_limit(shares in 1i64..1_000_000, bps in 0u16..=5_000) {
            let pool = Pool::new(Liquidity::new(100_000).unwrap());
            let tolerance = SlippageTolerance::from_bps(bps).unwrap();
            let buy = quote_buy_shares(&pool, Outcome::Yes, shares, FeeRate::ZERO).unwrap();
            proptest::prop_assert_eq!(check_max_cost(&buy, tolerance.limit_for(&buy)), Ok(()));
            proptest::prop_assert!(tolerance.limit_for(&buy) >= buy.amount);
            let sell = quote_sell(&buy.pool_after, Outcome::Yes, shares, FeeRate::ZERO).unwrap();
            proptest::prop_assert_eq!(check_min_proceeds(&sell, tolerance.limit_for(&sell)), Ok(()));
            proptest::prop_assert!(tolerance.limit_for(&sell) <= sell.amount);
        }
    }

    #[test]
    fn limits_apply_to_their_own_side_only() {
        let (buy, sell) = quotes();
        assert_eq!(
            check_max_cost(&sell, i64::MAX),
            Err(SlippageError::WrongSide {
                expected: Side::Buy,
                actual: Side::Sell
            })
        );
        let wrong = check_min_proceeds(&buy, 0);
        assert_eq!(
            wrong,
            Err(SlippageError::WrongSide {
                expected: Side::Sell,
                actual: Side::Buy
            })
        );
        assert_eq!(
            wrong.unwrap_err().to_string(),
            "a sell limit does not apply to a buy quote"
        );
    }
}
