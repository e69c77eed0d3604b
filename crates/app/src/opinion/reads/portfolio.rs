//! `GET /users/portfolio`: a player's positions with their cost, value and P&L, and the
//! totals. How a position is valued is the market crate's rule (`value_position`).

use opinion_core::OperatorId;
use opinion_market::{Valuation, value_position};
use opinion_wallet::Currency;

use crate::access::operator_currency;
use crate::error::AppError;
use crate::model::{OperatorMarket, PositionRecord, User};
use crate::opinion::reads::OperatorReads;

/// One position in a portfolio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortfolioLine {
    /// The market, with the operator's pool and visibility.
    pub market: OperatorMarket,
    /// Shares, cost basis and realized P&L.
    pub position: PositionRecord,
    /// Value and unrealized P&L.
    pub valuation: Valuation,
}

/// The sums over a portfolio's positions, in minor units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PortfolioTotals {
    /// What the shares held cost.
    pub cost_basis: i64,
    /// What they are worth.
    pub value: i64,
    /// Profit or loss taken by sales.
    pub realized_pnl: i64,
    /// Value minus cost basis.
    pub unrealized_pnl: i64,
}

/// A player's portfolio with the operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Portfolio {
    /// The player.
    pub user: User,
    /// The operator's currency, of every amount here.
    pub currency: Currency,
    /// Every position, newest market first.
    pub lines: Vec<PortfolioLine>,
    /// The sums.
    pub totals: PortfolioTotals,
}

impl OperatorReads {
    /// The portfolio of the operator's player known by `external_user_id`; 404 if none.
    pub async fn portfolio(&self, operator: OperatorId, external_user_id: &str) -> Result<Portfolio, AppError> {
        let user = self.user_by_external_id(operator, external_user_id).await?;
        self.portfolio_of(user).await
    }

    /// The portfolio of a player already found.
    pub async fn portfolio_of(&self, user: User) -> Result<Portfolio, AppError> {
        let currency = operator_currency(self.ports.operators.as_ref(), user.operator_id).await?;
        let held = self.ports.reads.list_positions(user.operator_id, user.id).await?;
        let lines: Vec<PortfolioLine> = held
            .into_iter()
            .map(|held| PortfolioLine {
                valuation: value_position(&held.position.position, &held.market.pool, held.market.market.status),
                market: held.market,
                position: held.position,
            })
            .collect();
        let totals = lines
            .iter()
            .fold(PortfolioTotals::default(), |sum, line| PortfolioTotals {
                cost_basis: sum.cost_basis + line.valuation.cost_basis,
                value: sum.value + line.valuation.value,
                realized_pnl: sum.realized_pnl + line.position.position.realized_pnl(),
                unrealized_pnl: sum.unrealized_pnl + line.valuation.unrealized_pnl,
            });
        Ok(Portfolio {
            user,
            currency,
            lines,
            totals,
        })
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::{MarketId, UserId};
    use opinion_market::{Holding, Liquidity, MarketStatus, Pool, Position, Resolution, ValuationBasis};

    use crate::error::AppError;
    use crate::model::PositionRecord;
    use crate::opinion::reads::ports::HeldPosition;
    use crate::test_support::reads::*;
    use crate::test_support::{NOW, OPERATOR};

    fn held(market_n: u128, status: MarketStatus, yes: (i64, i64), realized: i64) -> HeldPosition {
        let mut market = market(market_n, status);
        market.pool = Pool::from_parts(Liquidity::new(1_000).expect("b"), 1_000, 0).expect("pool");
        let holding = Holding {
            shares: yes.0,
            cost_basis: yes.1,
        };
        HeldPosition {
            position: PositionRecord {
                user_id: UserId::from_u128(2),
                market_id: MarketId::from_u128(market_n),
                position: Position::from_parts(holding, Holding::default(), realized).expect("position"),
                redeemed_at: None,
                updated_at: NOW,
            },
            market,
        }
    }

    #[tokio::test]
    async fn values_open_positions_at_the_mark_and_resolved_ones_at_the_payout() {
        let mut mocks = ReadMocks::default().with_operator();
        mocks
            .reads
            .expect_find_user_by_external_id()
            .returning(|_, _| Ok(Some(user(2, "p-1"))));
        mocks.reads.expect_list_positions().returning(|operator, user| {
            assert_eq!(operator, OPERATOR, "the caller's operator");
            assert_eq!(user, UserId::from_u128(2), "the player");
            Ok(vec![
                held(10, MarketStatus::Open, (1_000, 600), 5),
                held(11, MarketStatus::Resolved(Resolution::Yes), (100, 70), -3),
            ])
        });
        let portfolio = mocks.build().portfolio(OPERATOR, "p-1").await.expect("portfolio");
        assert_eq!(portfolio.currency.as_str(), "USD");
        let [open, resolved] = &portfolio.lines[..] else {
            panic!("two lines expected")
        };
        // YES at 0.731059 in a pool with 1000 YES outstanding and b = 1000.
        assert_eq!(
            (open.valuation.basis, open.valuation.value),
            (ValuationBasis::Mark, 731)
        );
        assert_eq!(open.valuation.unrealized_pnl, 131);
        assert_eq!(
            (resolved.valuation.basis, resolved.valuation.value),
            (ValuationBasis::Payout, 100)
        );
        assert_eq!(portfolio.totals.cost_basis, 670);
        assert_eq!(portfolio.totals.value, 831);
        assert_eq!(portfolio.totals.realized_pnl, 2);
        assert_eq!(portfolio.totals.unrealized_pnl, 161);
    }

    #[tokio::test]
    async fn an_unknown_player_has_no_portfolio() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_find_user_by_external_id().returning(|_, _| Ok(None));
        mocks.reads.expect_list_positions().never();
        let error = mocks.build().portfolio(OPERATOR, "ghost").await.expect_err("missing");
        assert!(matches!(error, AppError::NotFound("user")));
    }
}
