//! The overview's figures against a real database: executed trades per UTC day from the
//! window's start, distinct players, and nothing of another operator.

use opinion_app::opinion::reads::ports::{DailyTrading, OperatorReadStore};
use opinion_testkit::TradeSeed;
use time::macros::date;

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

#[tokio::test]
async fn executed_trades_are_counted_per_utc_day_for_their_operator_only() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    seed.market(&market(1)).await;
    seed.user(&user(1, 1)).await;
    seed.user(&user(1, 2)).await;
    seed.user(&user(2, 3)).await;
    let day = 24 * 3600;
    seed.trade(&trade(1, 1, 1, 1, at(-day))).await;
    seed.trade(&trade(1, 2, 1, 1, at(100))).await;
    seed.trade(&trade(1, 3, 2, 1, at(200))).await;
    seed.trade(&TradeSeed {
        status: "failed",
        ..trade(1, 4, 2, 1, at(300))
    })
    .await;
    seed.trade(&trade(1, 5, 1, 1, at(day))).await;
    seed.trade(&trade(2, 6, 3, 1, at(100))).await;

    let from = at(0).replace_time(time::Time::MIDNIGHT);
    let days = store.daily_trading(operator_id(1), from).await.expect("figures");
    assert_eq!(
        days,
        [
            DailyTrading {
                day: date!(2026 - 11 - 22),
                trades: 2,
                volume: 12,
                players: 2
            },
            DailyTrading {
                day: date!(2026 - 11 - 23),
                trades: 1,
                volume: 6,
                players: 1
            },
        ]
    );
    assert_eq!(store.manual_reviews_open(operator_id(1)).await.expect("count"), 0);
}
