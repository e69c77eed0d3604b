//! `GET /trades`, one trade with its wallet operations, and one player's trade history
//! in one market (the operator's pages of both).

use opinion_core::{MarketId, OperatorId, Page, PageRequest, TradeId, TradeKind};
use opinion_market::{Side, TradeStatus};
use opinion_wallet::Currency;

use crate::access::operator_currency;
use crate::error::AppError;
use crate::model::{OperatorMarket, PositionRecord, Trade, User};
use crate::opinion::reads::filters::{one_of, optional_external_user_id, optional_id, time_range};
use crate::opinion::reads::ports::TradeFilter;
use crate::opinion::reads::{BalanceOperation, OperatorReads};

/// The trades list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TradeQuery {
    /// `externalUserId`: only this player's.
    pub external_user_id: Option<String>,
    /// `marketId`: only this market's.
    pub market_id: Option<String>,
    /// `status`: `pending`, `manual_review`, `executed` or `failed`.
    pub status: Option<String>,
    /// `side`: `buy` or `sell`.
    pub side: Option<String>,
    /// `from`: created at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: created before (RFC 3339).
    pub to: Option<String>,
}

impl TradeQuery {
    fn filter(&self) -> Result<TradeFilter, AppError> {
        Ok(TradeFilter {
            external_user_id: optional_external_user_id(self.external_user_id.as_deref())?,
            market_id: optional_id("marketId", self.market_id.as_deref())?,
            status: one_of("status", self.status.as_deref(), TradeStatus::ALL, TradeStatus::as_str)?,
            side: one_of("side", self.side.as_deref(), &[Side::Buy, Side::Sell], Side::as_str)?,
            created: time_range(self.from.as_deref(), self.to.as_deref())?,
        })
    }
}

/// One trade, its market and every wallet operation made for it, with their steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TradeDetail {
    pub trade: Trade,
    /// Its market, as the operator sees it.
    pub market: OperatorMarket,
    /// Its wallet operations (buy or sell, and any compensation), oldest first.
    pub operations: Vec<BalanceOperation>,
}

/// One player's trades in one market, with the market and the player's position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TradeHistory {
    pub market: OperatorMarket,
    /// The player.
    pub user: User,
    /// The player's position there, if they ever had one.
    pub position: Option<PositionRecord>,
    /// One page of the player's trades there, newest first.
    pub trades: Page<Trade, TradeKind>,
    /// The operator's currency, of the position's amounts.
    pub currency: Currency,
}

impl OperatorReads {
    /// One page of the operator's trades, newest first.
    pub async fn list_trades(
        &self,
        operator: OperatorId,
        query: &TradeQuery,
        page: PageRequest<TradeKind>,
    ) -> Result<Page<Trade, TradeKind>, AppError> {
        self.trades_matching(operator, &query.filter()?, page).await
    }

    /// One page of `player`'s own trades, newest first.
    pub async fn trades_of_player(
        &self,
        player: &User,
        page: PageRequest<TradeKind>,
    ) -> Result<Page<Trade, TradeKind>, AppError> {
        let own = TradeFilter {
            external_user_id: Some(player.external_user_id.clone()),
            ..TradeFilter::default()
        };
        self.trades_matching(player.operator_id, &own, page).await
    }

    async fn trades_matching(
        &self,
        operator: OperatorId,
        filter: &TradeFilter,
        page: PageRequest<TradeKind>,
    ) -> Result<Page<Trade, TradeKind>, AppError> {
        Ok(self.ports.reads.list_trades(operator, filter, page).await?)
    }

    /// One trade of the operator with its market and wallet operations; 404 if none.
    pub async fn trade(&self, operator: OperatorId, id: TradeId) -> Result<TradeDetail, AppError> {
        let trade = self
            .ports
            .reads
            .find_trade(operator, id)
            .await?
            .ok_or(AppError::NotFound("trade"))?;
        let market = self.market(operator, trade.market_id).await?;
        let operations = self.ports.reads.list_trade_wallet_operations(operator, id).await?;
        let operations = self.with_steps(operator, operations).await?;
        Ok(TradeDetail {
            trade,
            market,
            operations,
        })
    }

    /// The player's trades in one market; 404 if the operator has no such market or player.
    pub async fn trade_history(
        &self,
        operator: OperatorId,
        market: MarketId,
        external_user_id: &str,
        page: PageRequest<TradeKind>,
    ) -> Result<TradeHistory, AppError> {
        let market = self.market(operator, market).await?;
        let user = self.user_by_external_id(operator, external_user_id).await?;
        let position = self
            .ports
            .reads
            .find_position(operator, user.id, market.market.id)
            .await?;
        let filter = TradeFilter {
            external_user_id: Some(user.external_user_id.clone()),
            market_id: Some(market.market.id),
            ..TradeFilter::default()
        };
        let trades = self.trades_matching(operator, &filter, page).await?;
        Ok(TradeHistory {
            market,
            user,
            position,
            trades,
            currency: operator_currency(self.ports.operators.as_ref(), operator).await?,
        })
    }
}

#[cfg(test)]
mod tests {
    use opinion_market::MarketStatus;

    use super::*;
    use crate::test_support::OPERATOR;
    use crate::test_support::reads::*;

    #[tokio::test]
    async fn filters_reach_the_store_typed_and_bad_ones_name_their_parameter() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_list_trades()
            .times(1)
            .returning(|operator, filter, _| {
                assert_eq!(operator, OPERATOR);
                assert_eq!(filter.status, Some(TradeStatus::ManualReview));
                assert_eq!(filter.side, Some(Side::Buy));
                assert_eq!(filter.external_user_id.as_deref(), Some("p-1"));
                Ok(empty_page())
            });
        let reads = mocks.build();
        let query = TradeQuery {
            external_user_id: Some("p-1".into()),
            status: Some("manual_review".into()),
            side: Some("buy".into()),
            ..Default::default()
        };
        reads
            .list_trades(OPERATOR, &query, PageRequest::default())
            .await
            .expect("listed");
        for (field, query) in [
            (
                "side",
                TradeQuery {
                    side: Some("hold".into()),
                    ..Default::default()
                },
            ),
            (
                "status",
                TradeQuery {
                    status: Some("open".into()),
                    ..Default::default()
                },
            ),
            (
                "marketId",
                TradeQuery {
                    market_id: Some("mkt_nope".into()),
                    ..Default::default()
                },
            ),
        ] {
            let error = reads
                .list_trades(OPERATOR, &query, PageRequest::default())
                .await
                .expect_err("refused");
            assert!(
                matches!(error, AppError::Invalid { field: f, .. } if f == field),
                "{error:?}"
            );
        }
    }

    #[tokio::test]
    async fn an_unknown_trade_is_not_found_without_reading_its_operations() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_find_trade().returning(|_, _| Ok(None));
        mocks.reads.expect_list_trade_wallet_operations().never();
        let error = mocks
            .build()
            .trade(OPERATOR, TradeId::from_u128(4))
            .await
            .expect_err("missing");
        assert!(matches!(error, AppError::NotFound("trade")));
    }

    #[tokio::test]
    async fn a_history_needs_both_the_market_and_the_player() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_find_market()
            .returning(|_, _| Ok(Some(market(3, MarketStatus::Open))));
        mocks.reads.expect_find_user_by_external_id().returning(|_, _| Ok(None));
        mocks.reads.expect_list_trades().never();
        let error = mocks
            .build()
            .trade_history(OPERATOR, MarketId::from_u128(3), "ghost", PageRequest::default())
            .await
            .expect_err("missing");
        assert!(matches!(error, AppError::NotFound("user")));
    }

    #[tokio::test]
    async fn a_history_reads_the_players_trades_in_that_market() {
        let mut mocks = ReadMocks::default().with_operator();
        mocks
            .reads
            .expect_find_market()
            .returning(|_, _| Ok(Some(market(3, MarketStatus::Open))));
        mocks
            .reads
            .expect_find_user_by_external_id()
            .returning(|_, _| Ok(Some(user(2, "p-1"))));
        mocks.reads.expect_find_position().returning(|_, _, _| Ok(None));
        mocks
            .reads
            .expect_list_trades()
            .times(1)
            .returning(|operator, filter, _| {
                assert_eq!(operator, OPERATOR);
                assert_eq!(filter.market_id, Some(MarketId::from_u128(3)));
                assert_eq!(filter.external_user_id.as_deref(), Some("p-1"));
                assert!(filter.status.is_none());
                Ok(empty_page())
            });
        let history = mocks
            .build()
            .trade_history(OPERATOR, MarketId::from_u128(3), "p-1", PageRequest::default())
            .await
            .expect("history");
        assert_eq!(history.user.external_user_id, "p-1");
        assert!(history.position.is_none());
    }
}
