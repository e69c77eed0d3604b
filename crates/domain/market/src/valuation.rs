//! What a position is worth to an operator's report: at the pool's current prices while
//! the market can still trade or await its answer, and at its payout once resolved (the
//! pool's price no longer means anything then).
//!
//! Unrealized P&L is the value minus the cost basis of the shares still held, so
//! `realized + unrealized` is the player's whole result in the market; after a VOID
//! resolution it is zero, because the refund is the net cost.

use crate::{MarketStatus, Pool, Position, redemption};

/// How a position's value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValuationBasis {
    /// Held shares at the pool's current prices ([`Position::mark_value`]).
    Mark,
    /// What the resolution pays the position ([`redemption`]).
    Payout,
}

impl ValuationBasis {
    /// Stable lower-case name for the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Mark => "mark",
            Self::Payout => "payout",
        }
    }
}

/// A position's value and its unrealized profit or loss, in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Valuation {
    /// Mark or payout.
    pub basis: ValuationBasis,
    /// What the position is worth.
    pub value: i64,
    /// What the shares still held cost, fees included.
    pub cost_basis: i64,
    /// `value − cost_basis`.
    pub unrealized_pnl: i64,
}

/// Values `position` in a market of `status` whose operator pool is `pool`.
pub fn value_position(position: &Position, pool: &Pool, status: MarketStatus) -> Valuation {
    let cost_basis = [crate::Outcome::Yes, crate::Outcome::No]
        .into_iter()
        .map(|outcome| position.holding(outcome).cost_basis)
        .sum::<i64>();
    let (basis, value) = match status.resolution() {
        Some(resolution) => (ValuationBasis::Payout, redemption(position, resolution)),
        None => (ValuationBasis::Mark, position.mark_value(pool)),
    };
    Valuation {
        basis,
        value,
        cost_basis,
        unrealized_pnl: value - cost_basis,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Holding, Liquidity, Resolution};

    fn position(yes: (i64, i64), no: (i64, i64), realized: i64) -> Position {
        let holding = |(shares, cost_basis)| Holding { shares, cost_basis };
        Position::from_parts(holding(yes), holding(no), realized).unwrap()
    }

    #[test]
    fn open_and_closed_markets_are_marked_at_the_pool_price() {
        let pool = Pool::from_parts(Liquidity::new(1_000).unwrap(), 1_000, 0).unwrap();
        let held = position((1_000, 600), (10, 4), 0);
        for status in [MarketStatus::Open, MarketStatus::Closed] {
            let valuation = value_position(&held, &pool, status);
            assert_eq!(valuation.basis, ValuationBasis::Mark);
            assert_eq!(valuation.value, held.mark_value(&pool));
            assert_eq!(valuation.cost_basis, 604);
            assert_eq!(valuation.unrealized_pnl, valuation.value - 604);
        }
    }

    #[test]
    fn resolved_markets_are_valued_at_the_payout() {
        let pool = Pool::new(Liquidity::new(1_000).unwrap());
        let held = position((100, 60), (40, 30), -5);
        let yes = value_position(&held, &pool, MarketStatus::Resolved(Resolution::Yes));
        assert_eq!(
            (yes.basis, yes.value, yes.unrealized_pnl),
            (ValuationBasis::Payout, 100, 10)
        );
        let no = value_position(&held, &pool, MarketStatus::Resolved(Resolution::No));
        assert_eq!((no.value, no.unrealized_pnl), (40, -50));
    }

    #[test]
    fn a_void_market_leaves_no_result() {
        let pool = Pool::new(Liquidity::new(1_000).unwrap());
        let held = position((100, 60), (40, 30), -5);
        let void = value_position(&held, &pool, MarketStatus::Resolved(Resolution::Void));
        assert_eq!(void.unrealized_pnl + held.realized_pnl(), 0);
        assert_eq!(ValuationBasis::Payout.as_str(), "payout");
    }
}
