//! Markets over HTTP: the operator's pool, prices and visibility in every listing,
//! hiding and showing a market, and the trending ranking.

use opinion_testkit::{MarketSeed, TradeSeed};
use serde_json::json;
use time::{Duration, OffsetDateTime};

use crate::helpers::{assert_problem, json_with_status, spawn_app};
use crate::trading_seed::*;

#[tokio::test]
async fn markets_show_the_operators_pool_prices_and_visibility() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    let (m1, m2, m3) = (market_id(1, at(1)), market_id(2, at(2)), market_id(3, at(3)));
    seed.market(&market(1, "One?", at(1))).await;
    seed.market(&MarketSeed {
        status: "resolved",
        resolution: Some("no"),
        ..market(2, "Two?", at(2))
    })
    .await;
    seed.market(&market(3, "Three?", at(3))).await;
    seed.pool(&pool(&app.operator, m1, 1_000, 0, false)).await;
    seed.pool(&pool(&app.operator, m3, 0, 0, true)).await;
    let key = app.key_with(&["markets:read"]).await;

    let all = json_with_status(app.get("/api/operator/markets", &key).await, 200).await;
    assert_eq!(ids(&all), [mkt(m3), mkt(m2), mkt(m1)]);
    let one = &all["data"][2];
    assert_eq!(one["yesPricePpm"], 731_059);
    assert_eq!(one["yesPrice"], "0.731059");
    assert_eq!(one["noPricePpm"], 268_941);
    assert_eq!(one["noPrice"], "0.268941");
    assert_eq!(
        (one["yesOutstanding"].clone(), one["liquidity"].clone()),
        (json!("1000"), json!("1000"))
    );
    assert_eq!(one["feeBps"], 100);
    assert_eq!(one["hidden"], false);
    assert_eq!(all["data"][0]["hidden"], true);
    assert_eq!(all["data"][1]["resolution"], "no");

    let hidden = json_with_status(app.get("/api/operator/markets?visibility=hidden", &key).await, 200).await;
    assert_eq!(ids(&hidden), [mkt(m3)]);
    let resolved = json_with_status(app.get("/api/operator/markets?status=resolved", &key).await, 200).await;
    assert_eq!(ids(&resolved), [mkt(m2)]);
    let page = json_with_status(app.get("/api/operator/markets?limit=2", &key).await, 200).await;
    let cursor = page["nextCursor"].as_str().expect("more");
    let rest = json_with_status(
        app.get(&format!("/api/operator/markets?limit=2&cursor={cursor}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(ids(&rest), [mkt(m1)]);
    let theirs = json_with_status(
        app.get("/api/operator/markets?visibility=hidden", &other.key).await,
        200,
    )
    .await;
    assert_eq!(theirs["data"], json!([]));
    for (path, field) in [
        ("/api/operator/markets?status=paused", "status"),
        ("/api/operator/markets?visibility=shown", "visibility"),
    ] {
        let problem = assert_problem(app.get(path, &key).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field);
    }
}

#[tokio::test]
async fn hiding_a_market_is_the_operators_own_and_repeating_it_is_harmless() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    let id = market_id(1, at(1));
    seed.market(&market(1, "One?", at(1))).await;
    let writer = app.key_with(&["markets:write"]).await;
    let path = format!("/api/operator/markets/{}/visibility", mkt(id));

    for _ in 0..2 {
        let hidden = json_with_status(app.post(&path, &writer, &json!({"visible": false})).await, 200).await;
        assert_eq!(
            (hidden["id"].clone(), hidden["hidden"].clone()),
            (json!(mkt(id)), json!(true))
        );
    }
    let mine = json_with_status(
        app.get("/api/operator/markets?visibility=hidden", &app.operator.key)
            .await,
        200,
    )
    .await;
    assert_eq!(ids(&mine), [mkt(id)]);
    let theirs = json_with_status(
        app.get("/api/operator/markets?visibility=visible", &other.key).await,
        200,
    )
    .await;
    assert_eq!(ids(&theirs), [mkt(id)]);
    let shown = json_with_status(app.post(&path, &writer, &json!({"visible": true})).await, 200).await;
    assert_eq!(shown["hidden"], false);

    let unknown = format!("/api/operator/markets/{}/visibility", mkt(market_id(9, at(9))));
    assert_problem(
        app.post(&unknown, &writer, &json!({"visible": false})).await,
        404,
        "not_found",
    )
    .await;
    assert_problem(
        app.post(
            "/api/operator/markets/trd_01jdz3qv6mz8x5c0a2t5d4e7f9/visibility",
            &writer,
            &json!({"visible": false}),
        )
        .await,
        400,
        "invalid_id",
    )
    .await;
    assert_problem(
        app.post(&path, &writer, &json!({"visible": "no"})).await,
        400,
        "invalid_body",
    )
    .await;
}

fn minutes_ago(now: OffsetDateTime, minutes: i64) -> OffsetDateTime {
    now - Duration::minutes(minutes)
}

#[tokio::test]
async fn trending_ranks_open_visible_markets_by_recent_activity() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    let now = OffsetDateTime::now_utc();
    let created = now - Duration::days(10);
    let (busy, rich, hidden, closed) = (
        market_id(1, created),
        market_id(2, created),
        market_id(3, created),
        market_id(4, created),
    );
    seed.market(&market(1, "Busy?", created)).await;
    seed.market(&market(2, "Rich?", created)).await;
    seed.market(&market(3, "Hidden?", created)).await;
    seed.market(&MarketSeed {
        status: "closed",
        ..market(4, "Closed?", created)
    })
    .await;
    seed.pool(&pool(&app.operator, hidden, 0, 0, true)).await;
    let players: Vec<_> = (1..=4)
        .map(|n| user(&app.operator, n, &format!("p-{n}"), created))
        .collect();
    for player in &players {
        seed.user(player).await;
    }
    let mut n = 0;
    let mut next = || {
        n += 1;
        n
    };
    // Busy: three traders in the last hour (3 points, 0.018 for the volume).
    for player in &players[..3] {
        seed.trade(&trade(&app.operator, next(), player, busy, minutes_ago(now, 30)))
            .await;
    }
    // Rich: one trader, 1500 of volume (2.5 points); two days ago a big sale by another.
    seed.trade(&TradeSeed {
        amount: 1_500,
        ..trade(&app.operator, next(), &players[0], rich, minutes_ago(now, 20))
    })
    .await;
    seed.trade(&TradeSeed {
        side: "sell",
        amount: 5_000,
        ..trade(&app.operator, next(), &players[3], rich, now - Duration::days(2))
    })
    .await;
    for player in &players {
        seed.trade(&trade(&app.operator, next(), player, hidden, minutes_ago(now, 10)))
            .await;
        seed.trade(&trade(&app.operator, next(), player, closed, minutes_ago(now, 10)))
            .await;
    }
    let key = app.key_with(&["markets:read"]).await;

    let day = json_with_status(app.get("/api/operator/markets/trending", &key).await, 200).await;
    assert_eq!(day["window"], "24h");
    assert_eq!(ids(&day), [mkt(busy), mkt(rich)]);
    assert_eq!(
        day["data"][0]["trending"],
        json!({"score": 3_018_000, "traders": 3, "volume": "18", "priceMovementPpm": 0, "yesPriceAtStartPpm": 500_000})
    );
    let week = json_with_status(app.get("/api/operator/markets/trending?window=7d", &key).await, 200).await;
    assert_eq!(ids(&week), [mkt(rich), mkt(busy)]);
    assert_eq!(week["data"][0]["trending"]["traders"], 2);
    assert_eq!(week["data"][0]["trending"]["volume"], "6500");
    let top = json_with_status(
        app.get("/api/operator/markets/trending?window=7d&limit=1", &key).await,
        200,
    )
    .await;
    assert_eq!(ids(&top), [mkt(rich)]);
    let problem = assert_problem(
        app.get("/api/operator/markets/trending?window=2d", &key).await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(problem["field"], "window");
    let theirs = json_with_status(app.get("/api/operator/markets/trending", &other.key).await, 200).await;
    assert_eq!(theirs["data"], json!([]));
}
