//! One operator's LMSR liquidity pool on one market: the liquidity `b` and the shares of
//! each outcome the maker has sold and not yet bought back.
//!
//! Every operator has its own pool per market, in its own currency, so operators'
//! players never move each other's prices.

use crate::{Liquidity, Outcome, PricePpm, lmsr};

/// A pool's state. Outstanding quantities are within `0..=`[`Pool::MAX_OUTSTANDING`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pool {
    liquidity: Liquidity,
    yes: i64,
    no: i64,
}

/// Why a stored pool state is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The maker cannot have bought back more shares than it sold.
    #[error("outstanding {} shares must not be negative, got {shares}", outcome.as_str())]
    NegativeOutstanding {
        /// Which outcome.
        outcome: Outcome,
        /// The refused quantity.
        shares: i64,
    },
    /// Beyond [`Pool::MAX_OUTSTANDING`] the rounding margin is no longer proven.
    #[error("outstanding {} shares must be at most {max}, got {shares}", outcome.as_str(), max = Pool::MAX_OUTSTANDING)]
    OutstandingTooLarge {
        /// Which outcome.
        outcome: Outcome,
        /// The refused quantity.
        shares: i64,
    },
}

impl Pool {
    /// Most shares of one outcome a pool may have outstanding (10^13). With
    /// [`Liquidity::MAX`] it bounds every number the pricing sees well inside the
    /// integers an `f64` holds exactly (2^53 ≈ 9·10^15).
    pub const MAX_OUTSTANDING: i64 = 10_000_000_000_000;

    /// A fresh pool with nothing sold: both outcomes at price one half.
    pub fn new(liquidity: Liquidity) -> Self {
        Self {
            liquidity,
            yes: 0,
            no: 0,
        }
    }

    /// Rebuilds a stored pool, checking the outstanding quantities.
    pub fn from_parts(liquidity: Liquidity, yes: i64, no: i64) -> Result<Self, PoolError> {
        check_outstanding(Outcome::Yes, yes)?;
        check_outstanding(Outcome::No, no)?;
        Ok(Self { liquidity, yes, no })
    }

    /// The liquidity parameter `b`.
    pub fn liquidity(&self) -> Liquidity {
        self.liquidity
    }

    /// Shares of `outcome` the maker has sold and not bought back: what it owes if that
    /// outcome wins.
    pub fn outstanding(&self, outcome: Outcome) -> i64 {
        match outcome {
            Outcome::Yes => self.yes,
            Outcome::No => self.no,
        }
    }

    /// The current price of `outcome`; the two outcomes' prices add up to one.
    pub fn price(&self, outcome: Outcome) -> PricePpm {
        let yes = lmsr::yes_price(self);
        match outcome {
            Outcome::Yes => yes,
            Outcome::No => yes.complement(),
        }
    }

    /// The pool after the outstanding quantity of `outcome` changes by `delta`, or the
    /// bound it would break.
    pub(crate) fn with_change(&self, outcome: Outcome, delta: i64) -> Result<Self, PoolError> {
        // Both terms are within ±2·10^13, far from overflow.
        let shares = self.outstanding(outcome) + delta;
        check_outstanding(outcome, shares)?;
        Ok(match outcome {
            Outcome::Yes => Self { yes: shares, ..*self },
            Outcome::No => Self { no: shares, ..*self },
        })
    }
}

fn check_outstanding(outcome: Outcome, shares: i64) -> Result<(), PoolError> {
    if shares < 0 {
        Err(PoolError::NegativeOutstanding { outcome, shares })
    } else if shares > Pool::MAX_OUTSTANDING {
        Err(PoolError::OutstandingTooLarge { outcome, shares })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn liquidity(b: i64) -> Liquidity {
        Liquidity::new(b).unwrap()
    }

    #[test]
    fn new_pool_is_even() {
        let pool = Pool::new(liquidity(1_000));
        assert_eq!(pool.outstanding(Outcome::Yes), 0);
        assert_eq!(pool.outstanding(Outcome::No), 0);
        assert_eq!(pool.liquidity(), liquidity(1_000));
        assert_eq!(pool.price(Outcome::Yes).ppm(), 500_000);
        assert_eq!(pool.price(Outcome::No).ppm(), 500_000);
    }

    #[test]
    fn from_parts_checks_bounds() {
        let b = liquidity(10);
        let max = Pool::MAX_OUTSTANDING;
        let pool = Pool::from_parts(b, 3, max).unwrap();
        assert_eq!(pool.outstanding(Outcome::Yes), 3);
        assert_eq!(pool.outstanding(Outcome::No), max);
        assert_eq!(
            Pool::from_parts(b, -1, 0),
            Err(PoolError::NegativeOutstanding {
                outcome: Outcome::Yes,
                shares: -1
            })
        );
        assert_eq!(
            Pool::from_parts(b, 0, max + 1),
            Err(PoolError::OutstandingTooLarge {
                outcome: Outcome::No,
                shares: max + 1
            })
        );
    }

    #[test]
    fn changes_one_outcome_within_bounds() {
        let pool = Pool::from_parts(liquidity(10), 5, 7).unwrap();
        let more_no = pool.with_change(Outcome::No, 3).unwrap();
        assert_eq!(more_no.outstanding(Outcome::No), 10);
        assert_eq!(more_no.outstanding(Outcome::Yes), 5);
        assert_eq!(
            pool.with_change(Outcome::Yes, -6),
            Err(PoolError::NegativeOutstanding {
                outcome: Outcome::Yes,
                shares: -1
            })
        );
        assert!(matches!(
            pool.with_change(Outcome::Yes, Pool::MAX_OUTSTANDING),
            Err(PoolError::OutstandingTooLarge { .. })
        ));
    }

    #[test]
    fn prices_complement_each_other() {
        let pool = Pool::from_parts(liquidity(100), 250, 40).unwrap();
        let yes = pool.price(Outcome::Yes).ppm();
        assert!(yes > 500_000);
        assert_eq!(yes + pool.price(Outcome::No).ppm(), 1_000_000);
    }
}
