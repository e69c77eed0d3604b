//! The staging simulator over HTTP: simulated users and wallets, the simulated wallet
//! reached by the platform's own wallet client, operations with injected faults, and
//! the operator-wide scenarios.

use reqwest::Method;
use serde_json::json;

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::simulator_support::{connect, market, operate, scenario, simulated_user, step};

#[tokio::test]
async fn simulated_users_and_wallets_are_the_operators_own() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let user = simulated_user(&app, &key, "player-1", 5_000).await;
    assert_eq!(user["balance"], "5000");
    assert_eq!(user["currency"], "USD");
    assert_eq!(user["disabled"], false);
    let id = user["id"].as_str().expect("id").to_owned();
    assert!(id.starts_with("smu_"));
    assert_problem(
        app.post(
            "/api/operator/simulator/users",
            &key,
            &json!({"externalUserId": "player-1"}),
        )
        .await,
        409,
        "simulated_user_exists",
    )
    .await;
    let bad = app
        .post(
            "/api/operator/simulator/users",
            &key,
            &json!({"externalUserId": "p", "startingBalance": "-1"}),
        )
        .await;
    assert_eq!(
        assert_problem(bad, 400, "validation_failed").await["field"],
        "startingBalance"
    );

    let changed = json_with_status(
        app.patch(
            &format!("/api/operator/simulator/users/{id}"),
            &key,
            &json!({"disabled": true, "displayName": "One"}),
        )
        .await,
        200,
    )
    .await;
    assert_eq!(
        (changed["disabled"].clone(), changed["displayName"].clone()),
        (json!(true), json!("One"))
    );
    let list = json_with_status(app.get("/api/operator/simulator/users?limit=1", &key).await, 200).await;
    assert_eq!(list["data"][0]["id"], id.as_str());

    let wallet = json_with_status(
        app.request(Method::PUT, "/api/operator/simulator/wallets/player-1", Some(&key))
            .json(&json!({"balance": "750"}))
            .send()
            .await
            .expect("put"),
        200,
    )
    .await;
    assert_eq!(wallet["balance"], "750");
    assert_eq!(wallet["log"], json!([]));

    let other = app.new_operator("Other").await;
    assert_problem(
        app.get(&format!("/api/operator/simulator/users/{id}"), &other.key)
            .await,
        404,
        "not_found",
    )
    .await;
    assert_problem(
        app.get("/api/operator/simulator/wallets/player-1", &other.key).await,
        404,
        "not_found",
    )
    .await;
}

#[tokio::test]
async fn a_buy_goes_through_the_wallet_client_to_the_simulated_wallet() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let user = simulated_user(&app, &key, "player-1", 100_000).await;
    let id = user["id"].as_str().expect("id");
    connect(&app, &key, 10_000).await;
    let market = market(&app, &key).await;

    let report = operate(
        &app,
        &key,
        id,
        &json!({"operation": "buy", "marketId": market, "outcome": "yes", "shares": "100"}),
    )
    .await;
    assert_eq!(report["completed"], true, "{report:#}");
    let buy = step(&report, "buy");
    assert_eq!(buy["ids"]["status"], "executed", "{report:#}");
    let trade_id = buy["ids"]["tradeId"].as_str().expect("tradeId");
    let amount: i64 = buy["ids"]["amount"].as_str().expect("amount").parse().expect("digits");
    assert_eq!(
        step(&report, "wallet")["ids"]["balance"],
        (100_000 - amount).to_string()
    );

    let wallet = json_with_status(app.get("/api/operator/simulator/wallets/player-1", &key).await, 200).await;
    let entry = &wallet["log"][0];
    assert_eq!(entry["idempotencyKey"], format!("buy:{trade_id}"));
    assert_eq!(entry["flow"], "buy");
    assert_eq!(entry["metadata"]["marketId"], market.as_str());
    assert_eq!(entry["applied"], true);
    assert_eq!(entry["answerStatus"], 200);
    let trade = json_with_status(app.get(&format!("/api/operator/trades/{trade_id}"), &key).await, 200).await;
    assert_eq!(trade["status"], "executed", "{trade}");
}

#[tokio::test]
async fn injected_faults_lead_to_refusals_and_manual_review() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let user = simulated_user(&app, &key, "player-1", 100_000).await;
    let id = user["id"].as_str().expect("id");
    connect(&app, &key, 1_000).await;
    let market = market(&app, &key).await;
    let buy = |fault: serde_json::Value| json!({"operation": "buy", "marketId": market, "outcome": "yes", "shares": "10", "faults": [fault]});

    let refused = operate(&app, &key, id, &buy(json!({"kind": "insufficient_funds"}))).await;
    assert_eq!(step(&refused, "buy")["ids"]["status"], "failed", "{refused:#}");
    assert_eq!(step(&refused, "wallet")["ids"]["balance"], "100000");

    let failed = operate(&app, &key, id, &buy(json!({"kind": "server_error"}))).await;
    assert_eq!(step(&failed, "buy")["ids"]["status"], "manual_review", "{failed:#}");

    let second = simulated_user(&app, &key, "player-2", 100_000).await;
    let second = second["id"].as_str().expect("id");
    let dropped = operate(&app, &key, second, &buy(json!({"kind": "dropped_connection"}))).await;
    assert_eq!(step(&dropped, "buy")["ids"]["status"], "manual_review", "{dropped:#}");
    let log = settled_log(&app, &key, "player-2").await;
    assert_eq!(
        (log[0]["delivery"].clone(), log[0]["applied"].clone()),
        (json!("dropped"), json!(true))
    );

    let wallet = json_with_status(app.get("/api/operator/simulator/wallets/player-1", &key).await, 200).await;
    let log = wallet["log"].as_array().expect("log");
    let faults: Vec<&str> = log.iter().filter_map(|e| e["fault"]["kind"].as_str()).collect();
    assert!(
        faults.contains(&"insufficient_funds") && faults.contains(&"server_error"),
        "{wallet:#}"
    );
    let refusal = log
        .iter()
        .find(|e| e["fault"]["kind"] == "insufficient_funds")
        .expect("refused entry");
    assert_eq!(refusal["answerStatus"], 402, "the refusal was recorded under its key");
}

#[tokio::test]
async fn a_timeout_is_applied_by_the_wallet_while_the_trade_waits_for_review() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let user = simulated_user(&app, &key, "player-1", 100_000).await;
    let id = user["id"].as_str().expect("id");
    connect(&app, &key, 1_000).await;
    let market = market(&app, &key).await;
    let report = operate(
        &app,
        &key,
        id,
        &json!({"operation": "buy", "marketId": market, "outcome": "no", "shares": "10", "faults": [{"kind": "timeout"}]}),
    )
    .await;
    let buy = step(&report, "buy");
    assert_eq!(buy["ids"]["status"], "manual_review", "{report:#}");
    let amount: i64 = buy["ids"]["amount"].as_str().expect("amount").parse().expect("digits");
    let log = settled_log(&app, &key, "player-1").await;
    assert_eq!(log[0]["fault"]["kind"], "timeout");
    assert_eq!(log[0]["applied"], true);
    let wallet = json_with_status(app.get("/api/operator/simulator/wallets/player-1", &key).await, 200).await;
    assert_eq!(
        wallet["balance"],
        (100_000 - amount).to_string(),
        "the wallet applied it after the platform gave up"
    );
    let operations = json_with_status(
        app.get("/api/operator/balance-operations?state=manual_review", &key)
            .await,
        200,
    )
    .await;
    assert_eq!(
        operations["data"][0]["idempotencyKey"], buy["ids"]["idempotencyKey"],
        "{operations:#}"
    );
}

#[tokio::test]
async fn a_batch_trades_a_simulator_market_that_resolves_and_pays_out() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    for player in ["player-1", "player-2"] {
        simulated_user(&app, &key, player, 100_000).await;
    }
    connect(&app, &key, 10_000).await;
    let market = market(&app, &key).await;
    let batch = scenario(
        &app,
        &key,
        &json!({"scenario": "trade_batch", "marketId": market, "outcome": "yes", "shares": "50"}),
    )
    .await;
    assert_eq!(batch["completed"], true, "{batch:#}");
    let buys = batch["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter(|s| s["step"] == "buy")
        .count();
    assert_eq!(buys, 2);

    let other = app.new_operator("Other").await;
    let refused = app
        .post(
            "/api/operator/simulator/operations",
            &other.key,
            &json!({"scenario": "resolve_market", "marketId": market, "resolution": "yes"}),
        )
        .await;
    assert_problem(refused, 409, "not_a_simulator_market").await;

    let resolved = scenario(
        &app,
        &key,
        &json!({"scenario": "resolve_market", "marketId": market, "resolution": "yes"}),
    )
    .await;
    assert_eq!(resolved["completed"], true, "{resolved:#}");
    assert_eq!(step(&resolved, "resolve_market")["ids"]["redemptions"], "2");
    assert_eq!(step(&resolved, "resolve_market")["ids"]["payoutTotal"], "100");
    let redemptions = json_with_status(
        app.get(&format!("/api/operator/redemptions?marketId={market}"), &key)
            .await,
        200,
    )
    .await;
    let statuses: Vec<&str> = redemptions["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|r| r["status"].as_str())
        .collect();
    assert_eq!(statuses, ["paid", "paid"], "{redemptions:#}");
}

#[tokio::test]
async fn the_simulated_wallet_trusts_only_the_adapter_signature() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    simulated_user(&app, &key, "player-1", 100).await;
    connect(&app, &key, 10_000).await;
    let path = format!("/simulator-wallet/{}/v1/balance", app.operator.id);
    let response = app
        .request(Method::POST, &path, None)
        .header("webhook-id", "bal_x")
        .header("webhook-timestamp", "1")
        .header("webhook-signature", "v1,AAAA")
        .json(&json!({"externalUserId": "player-1", "requestedAt": "2026-11-22T10:15:30.123Z"}))
        .send()
        .await
        .expect("call");
    assert_eq!(response.status().as_u16(), 401);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["error"]["code"], "invalid_signature");
}

/// The player's wallet log once its newest request is no longer pending (the simulated
/// wallet may still hold a request the platform stopped waiting for).
async fn settled_log(app: &TestApp, key: &str, player: &str) -> Vec<serde_json::Value> {
    for _ in 0..200 {
        let wallet = json_with_status(
            app.get(&format!("/api/operator/simulator/wallets/{player}"), key).await,
            200,
        )
        .await;
        let log = wallet["log"].as_array().cloned().unwrap_or_default();
        if log.first().is_some_and(|entry| entry["delivery"] != "pending") {
            return log;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the wallet log of {player} stayed pending");
}
