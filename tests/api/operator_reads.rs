//! The operator's JSON reads over HTTP: players, portfolios, trades, payouts and balance
//! operations; filters, pages across pages, bad filters, and never another operator's rows.

use opinion_testkit::{PositionSeed, RedemptionSeed, ResolutionSeed, StepSeed, TradeSeed};
use serde_json::{Value, json};

use crate::helpers::{assert_problem, json_with_status, spawn_app};
use crate::trading_seed::*;

#[tokio::test]
async fn players_page_filter_and_stay_with_their_operator() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    for n in 1..=3 {
        seed.user(&user(&app.operator, n, &format!("p-{n}"), at(i64::from(n))))
            .await;
    }
    seed.user(&user(&other, 9, "theirs", at(9))).await;
    let key = app.key_with(&["users:read"]).await;

    let first = json_with_status(app.get("/api/operator/users?limit=2", &key).await, 200).await;
    assert_eq!(first["data"][0]["externalUserId"], "p-3");
    assert_eq!(first["hasMore"], true);
    let cursor = first["nextCursor"].as_str().expect("cursor");
    let second = json_with_status(
        app.get(&format!("/api/operator/users?limit=2&cursor={cursor}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(second["data"].as_array().map(Vec::len), Some(1));
    assert_eq!(second["data"][0]["externalUserId"], "p-1");
    assert_eq!(second["hasMore"], false);

    let filtered = json_with_status(app.get("/api/operator/users?externalUserId=p-2", &key).await, 200).await;
    assert_eq!(filtered["data"].as_array().map(Vec::len), Some(1));
    let windowed = json_with_status(
        app.get(
            "/api/operator/users?from=2026-11-22T10:00:02Z&to=2026-11-22T10:00:03Z",
            &key,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(windowed["data"][0]["externalUserId"], "p-2");
    let theirs = json_with_status(app.get("/api/operator/users?externalUserId=theirs", &key).await, 200).await;
    assert_eq!(theirs["data"], json!([]));

    let bad = assert_problem(
        app.get("/api/operator/users?from=yesterday", &key).await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(bad["field"], "from");
    assert_problem(
        app.get("/api/operator/users?colour=red", &key).await,
        400,
        "invalid_query",
    )
    .await;
}

#[tokio::test]
async fn a_portfolio_values_positions_and_another_operators_player_is_not_found() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    let open = market_id(1, at(0));
    seed.market(&market(1, "Will it rain?", at(0))).await;
    seed.pool(&pool(&app.operator, open, 1_000, 0, false)).await;
    let player = user(&app.operator, 1, "p-1", at(1));
    seed.user(&player).await;
    seed.user(&user(&other, 2, "theirs", at(1))).await;
    seed.position(&PositionSeed {
        operator: bits(&app.operator),
        user: player.id,
        market: open,
        yes_shares: 1_000,
        yes_cost_basis: 600,
        no_shares: 0,
        no_cost_basis: 0,
        realized_pnl: 5,
        updated_at: at(2),
    })
    .await;
    let key = app.key_with(&["users:read"]).await;

    let portfolio = json_with_status(
        app.get("/api/operator/users/portfolio?externalUserId=p-1", &key).await,
        200,
    )
    .await;
    assert_eq!(portfolio["currency"], "USD");
    let position = &portfolio["positions"][0];
    assert_eq!(position["yesShares"], "1000");
    assert_eq!(position["costBasis"], "600");
    assert_eq!(position["valuation"], "mark");
    assert_eq!(position["markValue"], "731");
    assert_eq!(position["unrealizedPnl"], "131");
    assert_eq!(position["realizedPnl"], "5");
    assert_eq!(position["yesPricePpm"], 731_059);
    assert_eq!(position["yesPrice"], "0.731059");
    assert_eq!(
        portfolio["totals"],
        json!({"costBasis": "600", "markValue": "731", "realizedPnl": "5", "unrealizedPnl": "131"})
    );

    for path in [
        "/api/operator/users/portfolio?externalUserId=theirs",
        "/api/operator/users/portfolio?externalUserId=nobody",
    ] {
        assert_problem(app.get(path, &key).await, 404, "not_found").await;
    }
    assert_problem(
        app.get("/api/operator/users/portfolio", &key).await,
        400,
        "invalid_query",
    )
    .await;
}

#[tokio::test]
async fn trades_filter_and_one_trade_carries_its_wallet_operations() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    let (first, second) = (market_id(1, at(0)), market_id(2, at(0)));
    seed.market(&market(1, "First?", at(0))).await;
    seed.market(&market(2, "Second?", at(0))).await;
    let alice = user(&app.operator, 1, "alice", at(1));
    let bob = user(&app.operator, 2, "bob", at(1));
    let theirs = user(&other, 3, "theirs", at(1));
    for player in [&alice, &bob, &theirs] {
        seed.user(player).await;
    }
    let bought = trade(&app.operator, 1, &alice, first, at(10));
    seed.trade(&bought).await;
    seed.trade(&TradeSeed {
        side: "sell",
        ..trade(&app.operator, 2, &alice, second, at(20))
    })
    .await;
    seed.trade(&TradeSeed {
        status: "failed",
        ..trade(&app.operator, 3, &bob, first, at(30))
    })
    .await;
    let their_trade = trade(&other, 4, &theirs, first, at(40));
    seed.trade(&their_trade).await;
    let operation = buy_operation(&bought, "alice");
    seed.wallet_operation(&operation).await;
    for (step, state) in [(1, "prepared"), (2, "sent"), (3, "applied")] {
        seed.step(&StepSeed {
            operator: operation.operator,
            operation: operation.id,
            step,
            state,
            http_status: (state == "applied").then_some(200),
            detail: None,
            at: at(10),
        })
        .await;
    }
    let key = app.key_with(&["trades:read"]).await;

    let count = |body: &Value| body["data"].as_array().map(Vec::len);
    let all = json_with_status(app.get("/api/operator/trades", &key).await, 200).await;
    assert_eq!(count(&all), Some(3));
    assert_eq!(all["data"][0]["status"], "failed");
    assert_eq!(all["data"][2]["amount"], "6");
    let market_filter = format!(
        "/api/operator/trades?marketId=mkt_{}",
        ulid::Ulid(first).to_string().to_lowercase()
    );
    for (path, expected) in [
        ("/api/operator/trades?externalUserId=alice".to_owned(), 2),
        ("/api/operator/trades?side=sell".to_owned(), 1),
        ("/api/operator/trades?status=failed&externalUserId=bob".to_owned(), 1),
        (
            "/api/operator/trades?from=2026-11-22T10:00:15Z&to=2026-11-22T10:00:25Z".to_owned(),
            1,
        ),
        (market_filter, 2),
        ("/api/operator/trades?externalUserId=theirs".to_owned(), 0),
    ] {
        let listed = json_with_status(app.get(&path, &key).await, 200).await;
        assert_eq!(count(&listed), Some(expected), "{path}");
    }
    for (path, field) in [
        ("/api/operator/trades?side=hold", "side"),
        ("/api/operator/trades?status=open", "status"),
        (
            "/api/operator/trades?marketId=trd_01jdz3qv6mz8x5c0a2t5d4e7f9",
            "marketId",
        ),
        (
            "/api/operator/trades?to=2026-11-22T10:00:00Z&from=2026-11-22T11:00:00Z",
            "to",
        ),
    ] {
        let problem = assert_problem(app.get(path, &key).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{path}");
    }

    let id = all["data"][2]["id"].as_str().expect("id");
    let detail = json_with_status(app.get(&format!("/api/operator/trades/{id}"), &key).await, 200).await;
    assert_eq!(detail["question"], "First?");
    let wallet = &detail["walletOperations"][0];
    assert_eq!(wallet["remote_reference"], "wallet-ref-1");
    assert_eq!(wallet["amount"], "6");
    assert_eq!(wallet["balanceAfter"], "9994");
    assert_eq!(wallet["steps"].as_array().map(Vec::len), Some(3));
    let their_id = format!("trd_{}", ulid::Ulid(their_trade.id).to_string().to_lowercase());
    assert_problem(
        app.get(&format!("/api/operator/trades/{their_id}"), &key).await,
        404,
        "not_found",
    )
    .await;
    assert_problem(
        app.get("/api/operator/trades/mkt_01jdz3qv6mz8x5c0a2t5d4e7f9", &key)
            .await,
        400,
        "invalid_id",
    )
    .await;
}

#[tokio::test]
async fn payouts_and_balance_operations_filter_and_stay_with_their_operator() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    let resolved = market_id(1, at(0));
    seed.market(&opinion_testkit::MarketSeed {
        status: "resolved",
        resolution: Some("yes"),
        ..market(1, "Resolved?", at(0))
    })
    .await;
    let alice = user(&app.operator, 1, "alice", at(1));
    seed.user(&alice).await;
    seed.user(&user(&other, 2, "theirs", at(1))).await;
    for operator in [&app.operator, &other] {
        seed.resolution(&ResolutionSeed {
            operator: bits(operator),
            market: resolved,
            resolution: "yes",
            resolved_at: at(100),
            redemption_count: 1,
            payout_total: 1_000,
            currency: "USD",
        })
        .await;
    }
    seed.redemption(&RedemptionSeed {
        operator: bits(&app.operator),
        id: opinion_testkit::ulid_at(at(100), 1),
        user: alice.id,
        market: resolved,
        resolution: "yes",
        amount: 1_000,
        currency: "USD",
        status: "refused",
        created_at: at(100),
    })
    .await;
    let bought = trade(&app.operator, 5, &alice, resolved, at(10));
    seed.trade(&bought).await;
    seed.wallet_operation(&buy_operation(&bought, "alice")).await;
    let key = app.key_with(&["redemptions:read", "balance_operations:read"]).await;

    let resolutions = json_with_status(app.get("/api/operator/resolutions?resolution=yes", &key).await, 200).await;
    assert_eq!(resolutions["data"].as_array().map(Vec::len), Some(1));
    assert_eq!(resolutions["data"][0]["payoutTotal"], "1000");
    let none = json_with_status(app.get("/api/operator/resolutions?resolution=void", &key).await, 200).await;
    assert_eq!(none["data"], json!([]));
    let redemptions = json_with_status(app.get("/api/operator/redemptions?status=refused", &key).await, 200).await;
    assert_eq!(redemptions["data"][0]["externalUserId"], "alice");
    assert_eq!(redemptions["data"][0]["amount"], "1000");
    let theirs = json_with_status(
        app.get("/api/operator/redemptions?externalUserId=theirs", &key).await,
        200,
    )
    .await;
    assert_eq!(theirs["data"], json!([]));

    let operations = json_with_status(
        app.get("/api/operator/balance-operations?flow=buy&state=applied", &key)
            .await,
        200,
    )
    .await;
    let operation = &operations["data"][0];
    assert_eq!(operation["remote_reference"], "wallet-ref-1");
    assert_eq!(
        operation["idempotencyKey"].as_str().map(|k| k.starts_with("buy:")),
        Some(true)
    );
    assert_eq!(operation["metadata"]["shares"], "10");
    assert_eq!(operation["httpStatus"], 200);
    assert!(operation["createdAt"].as_str().is_some_and(|t| t.ends_with('Z')));
    assert!(operation.get("steps").is_none());
    let with_steps = json_with_status(
        app.get("/api/operator/balance-operations?includeSteps=true", &key)
            .await,
        200,
    )
    .await;
    assert_eq!(with_steps["data"][0]["steps"], json!([]));
    for (path, field) in [
        ("/api/operator/balance-operations?flow=deposit", "flow"),
        ("/api/operator/balance-operations?state=done", "state"),
        ("/api/operator/redemptions?status=owed", "status"),
        ("/api/operator/resolutions?marketId=nope", "marketId"),
    ] {
        let problem = assert_problem(app.get(path, &key).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{path}");
    }
    let theirs = json_with_status(
        app.get(
            "/api/operator/balance-operations",
            &app.key_of(&other, &["balance_operations:read"]).await,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(theirs["data"], json!([]));
}
