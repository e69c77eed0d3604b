//! Slippage limits: the player states the worst amount they accept, and a quote that the
//! pool's movement since they looked has made worse is refused.

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
