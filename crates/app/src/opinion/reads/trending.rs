//! `GET /markets/trending`: the operator's open, visible markets ranked by their
//! players' executed trading over a window (`1h`, `24h` or `7d`). The store reads the
//! activity in one query; the market crate scores and orders it.

use opinion_core::{OperatorId, PageLimit};
use opinion_market::{Activity, Outcome, PricePpm, TrendingScore, TrendingWindow, trending_order, trending_score};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::model::OperatorMarket;
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::filters::one_of;

/// One ranked market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrendingMarket {
    /// The market, with the operator's pool.
    pub market: OperatorMarket,
    /// Its score and the components of it.
    pub score: TrendingScore,
    /// The YES price the movement is measured from.
    pub yes_price_at_start: PricePpm,
}

/// The ranking over one window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trending {
    /// The window asked for.
    pub window: TrendingWindow,
    /// Where the window starts.
    pub since: OffsetDateTime,
    /// The markets, best first.
    pub markets: Vec<TrendingMarket>,
}

impl OperatorReads {
    /// The `limit` best-scoring open, visible markets over `window` (default `24h`).
    pub async fn trending_markets(
        &self,
        operator: OperatorId,
        window: Option<&str>,
        limit: PageLimit,
    ) -> Result<Trending, AppError> {
        let window = one_of("window", window, TrendingWindow::ALL, TrendingWindow::as_str)?.unwrap_or_default();
        let since = self.ports.clock.now() - window.duration();
        let activity = self.ports.reads.market_activity(operator, since).await?;
        let mut markets: Vec<TrendingMarket> = activity
            .into_iter()
            .map(|activity| {
                let score = trending_score(&Activity {
                    traders: activity.traders,
                    volume: activity.volume,
                    liquidity: activity.market.market.liquidity,
                    yes_price_at_start: activity.yes_price_at_start,
                    yes_price_now: activity.market.pool.price(Outcome::Yes),
                });
                TrendingMarket {
                    yes_price_at_start: activity.yes_price_at_start,
                    market: activity.market,
                    score,
                }
            })
            .collect();
        markets.sort_by(|a, b| trending_order((&a.score, a.market.market.id), (&b.score, b.market.market.id)));
        markets.truncate(usize::from(limit.get()));
        Ok(Trending { window, since, markets })
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::MarketId;
    use opinion_market::{Liquidity, MarketStatus, Pool};
    use time::Duration;

    use super::*;
    use crate::opinion::reads::ports::MarketActivity;
    use crate::test_support::reads::*;
    use crate::test_support::{NOW, OPERATOR};

    fn activity(n: u128, traders: i64, volume: i64, start_ppm: i64) -> MarketActivity {
        MarketActivity {
            market: market(n, MarketStatus::Open),
            traders,
            volume,
            yes_price_at_start: PricePpm::from_ppm(start_ppm).expect("price"),
        }
    }

    #[tokio::test]
    async fn ranks_by_score_then_newest_and_keeps_the_limit() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_market_activity()
            .times(1)
            .returning(|operator, since| {
                assert_eq!(operator, OPERATOR, "the caller's operator");
                assert_eq!(since, NOW - Duration::HOUR, "the window's start");
                let mut moved = activity(4, 1, 0, 500_000);
                moved.market.pool = Pool::from_parts(Liquidity::new(1_000).expect("b"), 1_000, 0).expect("pool");
                Ok(vec![
                    activity(1, 2, 0, 500_000),
                    activity(2, 2, 0, 500_000),
                    activity(3, 5, 0, 500_000),
                    moved,
                ])
            });
        let trending = mocks
            .build()
            .trending_markets(OPERATOR, Some("1h"), PageLimit::new(3).expect("limit"))
            .await
            .expect("ranked");
        let order: Vec<u128> = trending.markets.iter().map(|m| m.market.market.id.as_u128()).collect();
        // Market 4: one trader plus YES moving from 0.5 to 0.731059 (2.31 points).
        assert_eq!(order, [3, 4, 2]);
        assert_eq!(trending.markets[1].score.price_movement_ppm, 231_059);
        assert_eq!(trending.window, TrendingWindow::Hour);
        assert_eq!(trending.since, NOW - Duration::HOUR);
        assert_ne!(trending.markets[2].market.market.id, MarketId::from_u128(1));
    }

    #[tokio::test]
    async fn the_window_defaults_to_a_day_and_unknown_windows_are_refused() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_market_activity()
            .times(1)
            .withf(|_, since| *since == NOW - Duration::DAY)
            .returning(|_, _| Ok(Vec::new()));
        let reads = mocks.build();
        let trending = reads
            .trending_markets(OPERATOR, None, PageLimit::default())
            .await
            .expect("ranked");
        assert_eq!(trending.window, TrendingWindow::Day);
        let error = reads
            .trending_markets(OPERATOR, Some("2d"), PageLimit::default())
            .await
            .expect_err("refused");
        assert!(matches!(error, AppError::Invalid { field: "window", .. }));
    }
}
