//! What the hosted app shows of the markets: the board (every market on offer with its
//! last day's volume and YES price movement, trending first) and one market's page (the
//! market with the YES price after each of the operator's executed trades in it, for the
//! price chart). Both read only what the operator's own lists read.

use opinion_core::{MarketId, OperatorId, PageLimit, PageRequest};
use opinion_market::{Outcome, PricePpm, TradeStatus};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::model::{OperatorMarket, Trade};
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::ports::TradeFilter;

/// The window of the board's volume and price change.
const BOARD_WINDOW: &str = "24h";

/// One market on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardMarket {
    /// The market, with the operator's pool.
    pub market: OperatorMarket,
    /// Executed trade amounts over the last day, minor units.
    pub volume_24h: i64,
    /// The YES price a day ago (before the day's first trade; the price now without one).
    pub yes_price_day_ago: PricePpm,
    /// Whether it traded over the last day (those lead the board, by trending score).
    pub trending: bool,
}

/// One point of a market's price chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PricePoint {
    /// When the price took this value.
    pub at: OffsetDateTime,
    /// The YES price then.
    pub yes_price: PricePpm,
}

/// One market's page: the market and its price history, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketPage {
    pub market: OperatorMarket,
    /// From the market's creation to now (or its resolution), one point per executed
    /// trade in between (the latest [`PageLimit::MAX`] trades).
    pub history: Vec<PricePoint>,
}

impl OperatorReads {
    /// Every market a player of `operator` may trade now (up to [`PageLimit::MAX`]):
    /// those traded over the last day first, by trending score, then the others, newest
    /// first.
    pub async fn market_board(&self, operator: OperatorId) -> Result<Vec<BoardMarket>, AppError> {
        let all = PageRequest {
            limit: PageLimit::LARGEST,
            after: None,
        };
        let offered = self.markets_on_offer(operator, all).await?;
        let trending = self
            .trending_markets(operator, Some(BOARD_WINDOW), PageLimit::LARGEST)
            .await?;
        let mut board: Vec<BoardMarket> = trending
            .markets
            .into_iter()
            .map(|ranked| BoardMarket {
                volume_24h: ranked.score.volume,
                yes_price_day_ago: ranked.yes_price_at_start,
                market: ranked.market,
                trending: true,
            })
            .collect();
        for market in offered.items {
            if board.iter().all(|seen| seen.market.market.id != market.market.id) {
                board.push(BoardMarket {
                    volume_24h: 0,
                    yes_price_day_ago: market.pool.price(Outcome::Yes),
                    market,
                    trending: false,
                });
            }
        }
        Ok(board)
    }

    /// One market a player of `operator` may see (any status, not hidden), with its
    /// price history; 404 for a hidden or unknown market.
    pub async fn market_page(&self, operator: OperatorId, id: MarketId) -> Result<MarketPage, AppError> {
        let market = self.market(operator, id).await?;
        if market.hidden() {
            return Err(AppError::NotFound("market"));
        }
        let executed = TradeFilter {
            market_id: Some(id),
            status: Some(TradeStatus::Executed),
            ..TradeFilter::default()
        };
        let page = PageRequest {
            limit: PageLimit::LARGEST,
            after: None,
        };
        let mut trades = self.ports.reads.list_trades(operator, &executed, page).await?.items;
        trades.reverse();
        let end = market.market.resolved_at.unwrap_or_else(|| self.ports.clock.now());
        let history = price_history(&market, &trades, end);
        Ok(MarketPage { market, history })
    }
}

/// The YES price a trade left behind.
fn yes_after(trade: &Trade) -> PricePpm {
    match trade.outcome {
        Outcome::Yes => trade.price_after,
        Outcome::No => trade.price_after.complement(),
    }
}

/// The chart's points: the opening price at creation (before the first trade shown),
/// each trade's price after it, and the pool's price now at `end`.
fn price_history(market: &OperatorMarket, trades: &[Trade], end: OffsetDateTime) -> Vec<PricePoint> {
    let now = market.pool.price(Outcome::Yes);
    let opening = trades.first().map_or(now, |first| match first.outcome {
        Outcome::Yes => first.price_before,
        Outcome::No => first.price_before.complement(),
    });
    let mut points = vec![PricePoint {
        at: market.market.created_at,
        yes_price: opening,
    }];
    points.extend(trades.iter().map(|trade| PricePoint {
        at: trade.settled_at.unwrap_or(trade.created_at),
        yes_price: yes_after(trade),
    }));
    points.push(PricePoint {
        at: end,
        yes_price: now,
    });
    points
}

#[cfg(test)]
mod tests {
    use opinion_market::{Pool, Side};
    use time::Duration;

    use super::*;
    use crate::test_support::NOW;
    use crate::test_support::trading::{liquidity, market_with};

    fn trade(outcome: Outcome, before: u32, after: u32, minutes: i64) -> Trade {
        let price = |ppm: u32| PricePpm::from_ppm(i64::from(ppm)).expect("price");
        Trade {
            outcome,
            price_before: price(before),
            price_after: price(after),
            settled_at: Some(NOW - Duration::minutes(minutes)),
            ..crate::test_support::settlement::trade(Side::Buy, TradeStatus::Executed)
        }
    }

    #[test]
    fn the_history_runs_from_the_opening_price_through_each_trade_to_the_pool_now() {
        let market = market_with(Pool::new(liquidity()), opinion_market::MarketStatus::Open);
        let trades = [
            trade(Outcome::Yes, 500_000, 600_000, 30),
            trade(Outcome::No, 400_000, 450_000, 10),
        ];
        let points = price_history(&market, &trades, NOW);
        let yes: Vec<u32> = points.iter().map(|p| p.yes_price.ppm()).collect();
        assert_eq!(yes, vec![500_000, 600_000, 550_000, 500_000]);
        assert_eq!(points[0].at, market.market.created_at);
        assert_eq!(points[1].at, NOW - Duration::minutes(30));
        assert_eq!(points[3].at, NOW);
        let untraded = price_history(&market, &[], NOW);
        assert_eq!(untraded.len(), 2);
        assert_eq!(untraded[0].yes_price, untraded[1].yes_price);
    }
}
