//! `docs/operator/simulator.md`'s walkthrough, run step by step over HTTP with the same paths and
//! bodies the document shows with curl (each body is checked to be in the document).

use reqwest::Method;
use serde_json::json;

use crate::helpers::{TestApp, json_with_status, spawn_app};

const DOC: &str = include_str!("../../docs/operator/simulator.md");

/// Sends `body` as the document's curl does, after checking the document shows it.
async fn step(app: &TestApp, key: &str, method: Method, path: &str, body: &str) -> reqwest::Response {
    assert!(DOC.contains(&format!("-d '{body}'")), "the walkthrough shows {body}");
    app.request(method, path, Some(key))
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .expect("request")
}

#[tokio::test]
async fn the_walkthrough_reaches_a_passing_wallet_test() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let body = r#"{"name":"staging integration","scopes":["simulator:read","simulator:write","wallet_adapter:read","wallet_adapter:write","trades:read","balance_operations:read"]}"#;
    let created = json_with_status(
        step(&app, &key, Method::POST, "/api/operator/api-keys", body).await,
        201,
    )
    .await;
    let sim = created["secret"].as_str().expect("secret").to_owned();

    let body = r#"{"externalUserId":"opinion-wallet-test","startingBalance":"10000"}"#;
    json_with_status(
        step(&app, &sim, Method::POST, "/api/operator/simulator/users", body).await,
        201,
    )
    .await;

    let body = r#"{"scenario":"connect_wallet"}"#;
    let connected = json_with_status(
        step(&app, &sim, Method::POST, "/api/operator/simulator/operations", body).await,
        200,
    )
    .await;
    assert_eq!(connected["completed"], true, "{connected:#}");

    let body = r#"{"externalUserId":"opinion-wallet-test"}"#;
    let report = json_with_status(
        step(&app, &sim, Method::POST, "/api/operator/wallet-adapter/test", body).await,
        200,
    )
    .await;
    assert_eq!(report["verdict"], "passed", "{report:#}");
    assert_eq!(report["netChange"], "0");

    let body = r#"{"externalUserId":"player-1","startingBalance":"100000"}"#;
    let player = json_with_status(
        step(&app, &sim, Method::POST, "/api/operator/simulator/users", body).await,
        201,
    )
    .await;
    let player = player["id"].as_str().expect("id").to_owned();
    let body = r#"{"scenario":"create_market","question":"Will it rain tomorrow?"}"#;
    let created = json_with_status(
        step(&app, &sim, Method::POST, "/api/operator/simulator/operations", body).await,
        200,
    )
    .await;
    let market = created["steps"][0]["ids"]["marketId"]
        .as_str()
        .expect("marketId")
        .to_owned();

    let operations = format!("/api/operator/simulator/users/{player}/operations");
    let template = r#"{"operation":"buy","marketId":"'$MARKET'","outcome":"yes","shares":"100"}"#;
    let bought = json_with_status(step_with_market(&app, &sim, &operations, template, &market).await, 200).await;
    let buy = bought["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["step"] == "buy")
        .expect("buy")
        .clone();
    assert_eq!(buy["ids"]["status"], "executed", "{bought:#}");

    let template =
        r#"{"operation":"buy","marketId":"'$MARKET'","outcome":"no","shares":"10","faults":[{"kind":"timeout"}]}"#;
    let reviewed = json_with_status(step_with_market(&app, &sim, &operations, template, &market).await, 200).await;
    let buy = reviewed["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["step"] == "buy")
        .expect("buy")
        .clone();
    assert_eq!(buy["ids"]["status"], "manual_review", "{reviewed:#}");
    let review = json_with_status(
        app.get("/api/operator/balance-operations?state=manual_review", &sim)
            .await,
        200,
    )
    .await;
    assert_eq!(
        review["data"][0]["idempotencyKey"], buy["ids"]["idempotencyKey"],
        "{review:#}"
    );
    let wallet = json_with_status(app.get("/api/operator/simulator/wallets/player-1", &sim).await, 200).await;
    assert_eq!(wallet["log"][0]["fault"], json!({"kind": "timeout"}), "{wallet:#}");
    assert!(DOC.contains("$BASE/api/operator/simulator/wallets/player-1"));
}

/// A step whose documented body splices the shell's `$MARKET` in.
async fn step_with_market(app: &TestApp, key: &str, path: &str, template: &str, market: &str) -> reqwest::Response {
    assert!(
        DOC.contains(&format!("-d '{template}'")),
        "the walkthrough shows {template}"
    );
    let body = template.replace("'$MARKET'", market);
    app.request(Method::POST, path, Some(key))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request")
}
