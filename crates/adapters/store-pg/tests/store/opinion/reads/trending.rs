//! The trending activity query: executed trades in the window, per open visible market,
//! with distinct traders, volume and the YES price before the window's first trade.

use opinion_app::opinion::reads::ports::OperatorReadStore;
use opinion_testkit::{MarketSeed, TradeSeed};

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

#[tokio::test]
async fn aggregates_the_windows_executed_trades_of_open_visible_markets() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    seed.market(&market(1)).await;
    seed.market(&market(2)).await;
    seed.market(&MarketSeed {
        status: "closed",
        ..market(3)
    })
    .await;
    seed.market(&market(4)).await;
    seed.pool(&pool(1, 4, 0, 0, true)).await;
    for n in 1..=3 {
        seed.user(&user(1, n)).await;
    }
    seed.user(&user(2, 9)).await;
    let since = at(3_600);
    // Market 1: before the window, then a NO buy at 0.4 (YES 0.6) first in the window,
    // then two more trades by two players, one of them failed.
    seed.trade(&trade(1, 1, 1, 1, at(60))).await;
    seed.trade(&TradeSeed {
        outcome: "no",
        price_before_ppm: 400_000,
        amount: 10,
        ..trade(1, 2, 1, 1, at(3_700))
    })
    .await;
    seed.trade(&TradeSeed {
        amount: 20,
        ..trade(1, 3, 2, 1, at(3_800))
    })
    .await;
    seed.trade(&TradeSeed {
        status: "failed",
        amount: 500,
        ..trade(1, 4, 3, 1, at(3_900))
    })
    .await;
    // Market 2: one sale by player 3.
    seed.trade(&TradeSeed {
        side: "sell",
        ..trade(1, 5, 3, 2, at(4_000))
    })
    .await;
    // Closed, hidden and another operator's trades never count.
    seed.trade(&trade(1, 6, 1, 3, at(4_000))).await;
    seed.trade(&trade(1, 7, 1, 4, at(4_000))).await;
    seed.trade(&trade(2, 8, 9, 1, at(4_000))).await;

    let mut activity = store.market_activity(operator_id(1), since).await.expect("activity");
    activity.sort_by_key(|a| a.market.market.id);
    let summary: Vec<(u128, i64, i64, u32)> = activity
        .iter()
        .map(|a| {
            (
                a.market.market.id.as_u128(),
                a.traders,
                a.volume,
                a.yes_price_at_start.ppm(),
            )
        })
        .collect();
    assert_eq!(summary, [(market_id(1), 2, 30, 600_000), (market_id(2), 1, 6, 500_000)]);
    let theirs = store.market_activity(operator_id(2), since).await.expect("activity");
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0].traders, 1);
}
