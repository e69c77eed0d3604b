//! The operator's reads of players, markets, positions and trades against a real
//! database: filters, keyset pages across several pages, and nothing of another operator.

use opinion_app::opinion::reads::ports::{
    MarketFilter, MarketStage, OperatorReadStore, TimeRange, TradeFilter, UserFilter,
};
use opinion_core::{MarketId, PageLimit, PageRequest, TradeId, UserId};
use opinion_market::{Outcome, Side, TradeStatus};
use opinion_testkit::{MarketSeed, PositionSeed, TradeSeed, ulid_at};

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

fn page<K: opinion_core::IdKind>(limit: u32) -> PageRequest<K> {
    PageRequest {
        limit: PageLimit::new(limit).expect("limit"),
        after: None,
    }
}

#[tokio::test]
async fn players_page_newest_first_filter_and_stay_with_their_operator() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    for n in 1..=5 {
        seed.user(&user(1, n)).await;
    }
    seed.user(&user(2, 6)).await;

    let first = store
        .list_users(operator_id(1), &UserFilter::default(), page(2))
        .await
        .expect("page");
    let names: Vec<&str> = first.items.iter().map(|u| u.external_user_id.as_str()).collect();
    assert_eq!(names, ["p-5", "p-4"]);
    let second = PageRequest {
        after: first.next,
        ..page(2)
    };
    let second = store
        .list_users(operator_id(1), &UserFilter::default(), second)
        .await
        .expect("page");
    let third = PageRequest {
        after: second.next,
        ..page(2)
    };
    let third = store
        .list_users(operator_id(1), &UserFilter::default(), third)
        .await
        .expect("page");
    assert_eq!(second.items.len() + third.items.len(), 3);
    assert!(!third.has_more());

    let window = UserFilter {
        external_user_id: None,
        created: TimeRange {
            from: Some(at(2)),
            to: Some(at(4)),
        },
    };
    let windowed = store.list_users(operator_id(1), &window, page(50)).await.expect("page");
    let names: Vec<&str> = windowed.items.iter().map(|u| u.external_user_id.as_str()).collect();
    assert_eq!(names, ["p-3", "p-2"]);

    assert!(
        store
            .find_user_by_external_id(operator_id(1), "p-6")
            .await
            .expect("find")
            .is_none()
    );
    assert!(
        store
            .find_user_by_external_id(operator_id(2), "p-6")
            .await
            .expect("find")
            .is_some()
    );
    let theirs = UserId::from_u128(user_id(2, 6));
    assert!(store.find_user(operator_id(1), theirs).await.expect("find").is_none());
}

#[tokio::test]
async fn markets_carry_the_operators_own_pool_and_visibility() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    seed.market(&market(1)).await;
    seed.market(&MarketSeed {
        status: "resolved",
        resolution: Some("no"),
        ..market(2)
    })
    .await;
    seed.market(&market(3)).await;
    seed.pool(&pool(1, 1, 400, 0, false)).await;
    seed.pool(&pool(2, 1, 0, 900, true)).await;
    seed.pool(&pool(1, 3, 0, 0, true)).await;

    let all = store
        .list_markets(operator_id(1), &MarketFilter::default(), page(50))
        .await
        .expect("list");
    let ids: Vec<u128> = all.items.iter().map(|m| m.market.id.as_u128()).collect();
    assert_eq!(ids, [market_id(3), market_id(2), market_id(1)]);
    let first = &all.items[2];
    assert_eq!((first.pool.outstanding(Outcome::Yes), first.hidden()), (400, false));
    assert_eq!(all.items[1].pool.outstanding(Outcome::No), 0);

    let hidden = MarketFilter {
        stage: None,
        hidden: Some(true),
    };
    let hidden = store
        .list_markets(operator_id(1), &hidden, page(50))
        .await
        .expect("list");
    assert_eq!(hidden.items.len(), 1);
    assert_eq!(hidden.items[0].market.id.as_u128(), market_id(3));
    let visible_open = MarketFilter {
        stage: Some(MarketStage::Open),
        hidden: Some(false),
    };
    let visible_open = store
        .list_markets(operator_id(2), &visible_open, page(50))
        .await
        .expect("list");
    let ids: Vec<u128> = visible_open.items.iter().map(|m| m.market.id.as_u128()).collect();
    assert_eq!(ids, [market_id(3)], "operator 2 hid market 1 and market 2 is resolved");

    let theirs = store
        .find_market(operator_id(2), MarketId::from_u128(market_id(1)))
        .await
        .expect("find")
        .expect("shared market");
    assert_eq!((theirs.pool.outstanding(Outcome::No), theirs.hidden()), (900, true));
    let paged = store
        .list_markets(operator_id(1), &MarketFilter::default(), page(2))
        .await
        .expect("list");
    let rest = PageRequest {
        after: paged.next,
        ..page(2)
    };
    let rest = store
        .list_markets(operator_id(1), &MarketFilter::default(), rest)
        .await
        .expect("list");
    assert_eq!(rest.items.len(), 1);
    assert!(!rest.has_more());
}

#[tokio::test]
async fn trades_filter_page_and_name_their_player() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    seed.market(&market(1)).await;
    seed.market(&market(2)).await;
    seed.user(&user(1, 1)).await;
    seed.user(&user(1, 2)).await;
    seed.user(&user(2, 3)).await;
    seed.trade(&trade(1, 1, 1, 1, at(100))).await;
    seed.trade(&TradeSeed {
        side: "sell",
        ..trade(1, 2, 1, 2, at(200))
    })
    .await;
    seed.trade(&TradeSeed {
        status: "manual_review",
        ..trade(1, 3, 2, 1, at(300))
    })
    .await;
    seed.trade(&trade(2, 4, 3, 1, at(400))).await;

    let all = store
        .list_trades(operator_id(1), &TradeFilter::default(), page(2))
        .await
        .expect("list");
    assert_eq!(all.items.len(), 2);
    assert_eq!(all.items[0].external_user_id, "p-2");
    let rest = PageRequest {
        after: all.next,
        ..page(2)
    };
    let rest = store
        .list_trades(operator_id(1), &TradeFilter::default(), rest)
        .await
        .expect("list");
    assert_eq!(rest.items.len(), 1);
    assert!(!rest.has_more());

    let cases: Vec<(TradeFilter, usize)> = vec![
        (
            TradeFilter {
                external_user_id: Some("p-1".into()),
                ..Default::default()
            },
            2,
        ),
        (
            TradeFilter {
                market_id: Some(MarketId::from_u128(market_id(1))),
                ..Default::default()
            },
            2,
        ),
        (
            TradeFilter {
                status: Some(TradeStatus::ManualReview),
                ..Default::default()
            },
            1,
        ),
        (
            TradeFilter {
                side: Some(Side::Sell),
                ..Default::default()
            },
            1,
        ),
        (
            TradeFilter {
                created: TimeRange {
                    from: Some(at(200)),
                    to: Some(at(300)),
                },
                ..Default::default()
            },
            1,
        ),
        (
            TradeFilter {
                external_user_id: Some("p-3".into()),
                ..Default::default()
            },
            0,
        ),
    ];
    for (filter, expected) in cases {
        let listed = store
            .list_trades(operator_id(1), &filter, page(50))
            .await
            .expect("list");
        assert_eq!(listed.items.len(), expected, "{filter:?}");
    }
    let theirs_only = TradeFilter {
        external_user_id: Some("p-1".into()),
        ..Default::default()
    };
    let newest = store
        .list_trades(operator_id(1), &theirs_only, page(1))
        .await
        .expect("list");
    let older = PageRequest {
        after: newest.next,
        ..page(1)
    };
    let older = store
        .list_trades(operator_id(1), &theirs_only, older)
        .await
        .expect("list");
    let walked: Vec<TradeId> = newest.items.iter().chain(&older.items).map(|trade| trade.id).collect();
    assert_eq!(
        walked,
        [
            TradeId::from_u128(ulid_at(at(200), 2)),
            TradeId::from_u128(ulid_at(at(100), 1))
        ],
        "a player's trades page by cursor, newest first"
    );
    assert!(!older.has_more());
    assert!(older.items.iter().all(|trade| trade.external_user_id == "p-1"));
    let theirs = TradeId::from_u128(ulid_at(at(400), 4));
    assert!(store.find_trade(operator_id(1), theirs).await.expect("find").is_none());
    let found = store
        .find_trade(operator_id(2), theirs)
        .await
        .expect("find")
        .expect("theirs");
    assert_eq!(found.external_user_id, "p-3");
}

#[tokio::test]
async fn a_players_positions_come_with_their_markets() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    let mut seed = seeder(&db).await;
    seed.market(&market(1)).await;
    seed.market(&market(2)).await;
    seed.pool(&pool(1, 2, 1_000, 0, false)).await;
    seed.user(&user(1, 1)).await;
    for n in [1, 2] {
        seed.position(&PositionSeed {
            operator: 1,
            user: user_id(1, 1),
            market: market_id(n),
            yes_shares: 100,
            yes_cost_basis: 60,
            no_shares: 0,
            no_cost_basis: 0,
            realized_pnl: 4,
            updated_at: at(10),
        })
        .await;
    }
    let player = UserId::from_u128(user_id(1, 1));
    let held = store.list_positions(operator_id(1), player).await.expect("list");
    let markets: Vec<u128> = held.iter().map(|h| h.market.market.id.as_u128()).collect();
    assert_eq!(markets, [market_id(2), market_id(1)]);
    assert_eq!(held[0].market.pool.outstanding(Outcome::Yes), 1_000);
    assert_eq!(held[0].position.position.realized_pnl(), 4);
    let one = store
        .find_position(operator_id(1), player, MarketId::from_u128(market_id(1)))
        .await
        .expect("find");
    assert_eq!(one.map(|p| p.position.holding(Outcome::Yes).shares), Some(100));
    assert!(
        store
            .list_positions(operator_id(2), player)
            .await
            .expect("list")
            .is_empty()
    );
}
