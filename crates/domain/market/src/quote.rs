//! The priced result of a proposed trade, and why a trade cannot be priced.
//!
//! Quoting is pure: acting on a quote means storing its [`Quote::pool_after`] (under the
//! same lock that read the pool) and moving [`Quote::amount`] between player and maker.

use crate::{Outcome, Pool, PoolError, PricePpm, Side};

/// A priced trade. Every number is an integer; the fee is included in `amount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Quote {
    /// The outcome whose shares change hands.
    pub outcome: Outcome,
    /// Whether the player buys or sells.
    pub side: Side,
    /// Share units traded (positive).
    pub shares: i64,
    /// Minor units the player pays (buy) or receives (sell), fee included.
    pub amount: i64,
    /// The fee inside `amount`: added to a buy's cost, taken from a sale's proceeds.
    pub fee: i64,
    /// Price of `outcome` before the trade.
    pub price_before: PricePpm,
    /// Price of `outcome` after the trade.
    pub price_after: PricePpm,
    /// The pool once the trade is applied.
    pub pool_after: Pool,
}

impl Quote {
    /// The amount before the fee: the cost (buy) or proceeds (sale) the market maker
    /// itself charges or pays, which is what the maker's books record.
    pub fn gross(&self) -> i64 {
        match self.side {
            Side::Buy => self.amount - self.fee,
            Side::Sell => self.amount + self.fee,
        }
    }

    /// What one share costs (buy) or pays (sale) on average, fee included, in parts per
    /// million of the share's payout, rounded to the nearest.
    pub fn average_price_ppm(&self) -> u32 {
        let ppm = (i128::from(self.amount) * 1_000_000 + i128::from(self.shares) / 2) / i128::from(self.shares.max(1));
        u32::try_from(ppm).unwrap_or(u32::MAX)
    }

    /// Minor units the shares pay if their outcome wins: one per share.
    pub fn payout_if_right(&self) -> i64 {
        self.shares
    }
}

/// Why a trade cannot be priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TradeError {
    /// A trade moves at least one share.
    #[error("share count must be positive, got {0}")]
    SharesNotPositive(i64),
    /// Above [`crate::MAX_TRADE_SHARES`] the rounding margin is no longer proven.
    #[error("share count must be at most {max}, got {0}", max = crate::MAX_TRADE_SHARES)]
    SharesTooLarge(i64),
    /// A buy by amount spends at least one minor unit.
    #[error("amount must be positive, got {0}")]
    AmountNotPositive(i64),
    /// Above [`crate::MAX_TRADE_AMOUNT`] a single trade is refused.
    #[error("amount must be at most {max}, got {0}", max = crate::MAX_TRADE_AMOUNT)]
    AmountTooLarge(i64),
    /// The amount does not buy a single share; `minimum` would.
    #[error("amount {amount} buys no share; one share costs {minimum}")]
    AmountBelowOneShare {
        /// The amount offered.
        amount: i64,
        /// The debit for one share, fee included.
        minimum: i64,
    },
    /// The pool would leave its bounds: more outstanding than
    /// [`Pool::MAX_OUTSTANDING`], or a sale of more shares than the maker ever sold.
    #[error("the pool cannot take this trade: {0}")]
    Pool(#[from] PoolError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Liquidity;

    #[test]
    fn gross_removes_or_restores_the_fee() {
        let pool = Pool::new(Liquidity::new(100).unwrap());
        let quote = Quote {
            outcome: Outcome::Yes,
            side: Side::Buy,
            shares: 10,
            amount: 7,
            fee: 2,
            price_before: pool.price(Outcome::Yes),
            price_after: pool.price(Outcome::Yes),
            pool_after: pool,
        };
        assert_eq!(quote.gross(), 5);
        let sale = Quote {
            side: Side::Sell,
            ..quote
        };
        assert_eq!(sale.gross(), 9);
        assert_eq!(quote.average_price_ppm(), 700_000);
        assert_eq!(quote.payout_if_right(), 10);
        let third = Quote {
            amount: 1,
            shares: 3,
            ..quote
        };
        assert_eq!(third.average_price_ppm(), 333_333);
    }

    #[test]
    fn messages_name_the_limits() {
        assert_eq!(
            TradeError::SharesTooLarge(1).to_string(),
            "share count must be at most 10000000000000, got 1"
        );
        assert_eq!(
            TradeError::AmountBelowOneShare { amount: 1, minimum: 2 }.to_string(),
            "amount 1 buys no share; one share costs 2"
        );
    }
}
