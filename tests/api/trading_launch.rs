//! Launch and the player API's answers to bad input: a clear 4xx naming the problem and
//! nothing written; launch tokens work once; player routes take player sessions only;
//! hidden markets are not offered.

use reqwest::Method;
use serde_json::json;

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_support::*;

async fn launch(app: &TestApp, body: serde_json::Value) -> reqwest::Response {
    app.post("/api/operator/launch", &app.operator.key, &body).await
}

#[tokio::test]
async fn bad_launches_are_refused_by_name_and_store_nothing() {
    let app = spawn_app().await;
    let flight = launch(&app, json!({"externalUserId": "p", "product": "flight"})).await;
    assert_problem(flight, 409, "product_not_enabled").await;
    let cases = [
        (json!({"externalUserId": "p", "product": "poker"}), "product"),
        (json!({"externalUserId": ""}), "externalUserId"),
        (json!({"externalUserId": "p", "language": "english"}), "language"),
        (
            json!({"externalUserId": "p", "returnUrl": "javascript:alert(1)"}),
            "returnUrl",
        ),
    ];
    for (body, field) in cases {
        let problem = assert_problem(launch(&app, body).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field);
    }
    assert_problem(
        launch(&app, json!({"externalUserId": "p", "vip": true})).await,
        400,
        "invalid_body",
    )
    .await;
    let users = json_with_status(app.get("/api/operator/users", &app.operator.key).await, 200).await;
    assert_eq!(users["data"].as_array().map(Vec::len), Some(0), "nothing half-written");
}

#[tokio::test]
async fn a_launch_token_opens_one_session_and_only_sessions_open_the_player_api() {
    let app = spawn_app().await;
    let launched = json_with_status(launch(&app, json!({"externalUserId": "p"})).await, 201).await;
    let url = launched["launchUrl"].as_str().expect("launchUrl");
    assert!(url.starts_with(&format!("{}/play#launch=", app.address)), "{url}");
    let exchange = |token: &str| {
        app.request(Method::POST, "/api/player/sessions", None)
            .json(&json!({ "launchToken": token }))
            .send()
    };
    let token = launched["launchToken"].as_str().expect("token");
    json_with_status(exchange(token).await.expect("request"), 201).await;
    assert_problem(
        exchange(token).await.expect("request"),
        401,
        "launch_token_used_or_expired",
    )
    .await;
    assert_problem(exchange("forged").await.expect("request"), 401, "launch_token_invalid").await;
    let anonymous = app
        .request(Method::GET, "/api/player/markets", None)
        .send()
        .await
        .expect("request");
    assert_problem(anonymous, 401, "credential_missing").await;
    assert_problem(
        app.get("/api/player/markets", &app.operator.key).await,
        401,
        "session_invalid",
    )
    .await;
}

#[tokio::test]
async fn orders_are_checked_before_anything_is_stored() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let session = player(&app, "p").await;
    let no_wallet = place(&app, &session, &order("o1", market, "buy", "shares", 10)).await;
    assert_problem(no_wallet, 409, "wallet_adapter_not_configured").await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 1_000);
    let mut bad_value = order("o2", market, "buy", "shares", 10);
    bad_value["value"] = json!("ten");
    let mut no_id = order("o3", market, "buy", "shares", 10);
    no_id.as_object_mut().expect("object").remove("clientOrderId");
    let cases = [
        (bad_value, "value"),
        (order("o4", market, "sell", "amount", 10), "kind"),
        (no_id, "clientOrderId"),
        (order("bad id!", market, "buy", "shares", 10), "clientOrderId"),
    ];
    for (body, field) in cases {
        let problem = assert_problem(place(&app, &session, &body).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{body}");
    }
    let mut limited = order("o5", market, "buy", "shares", 1_000);
    limited["limit"] = json!("1");
    assert_problem(place(&app, &session, &limited).await, 409, "limit_not_met").await;
    let unheld = place(&app, &session, &order("o6", market, "sell", "shares", 10)).await;
    assert_problem(unheld, 409, "insufficient_shares").await;
    assert!(wallet.ledger().is_empty(), "no refused order reached the wallet");
    let trades = json_with_status(app.get("/api/player/trades", &session).await, 200).await;
    assert_eq!(trades["data"].as_array().map(Vec::len), Some(0));
}

#[tokio::test]
async fn a_market_the_operator_hides_is_not_offered_to_its_players() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let _wallet = wallet(&app).await;
    let session = player(&app, "p").await;
    let hide = app
        .post(
            &format!("/api/operator/markets/{market}/visibility"),
            &app.operator.key,
            &json!({"visible": false}),
        )
        .await;
    json_with_status(hide, 200).await;
    let offered = json_with_status(app.get("/api/player/markets", &session).await, 200).await;
    assert_eq!(offered["data"].as_array().map(Vec::len), Some(0));
    assert_problem(
        place(&app, &session, &order("h", market, "buy", "shares", 10)).await,
        404,
        "not_found",
    )
    .await;
}

#[tokio::test]
async fn the_launch_url_opens_the_hosted_app_page() {
    let app = spawn_app().await;
    let launched = json_with_status(launch(&app, json!({"externalUserId": "p"})).await, 201).await;
    let url = launched["launchUrl"].as_str().expect("launchUrl");
    let page_url = url.split('#').next().expect("the page, without the fragment");
    let page = app.client.get(page_url).send().await.expect("request");
    assert_eq!(page.status(), 200);
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .expect("policy")
        .to_owned();
    assert!(
        policy.contains("script-src 'self'") && policy.contains("connect-src 'self'") && !policy.contains("unsafe"),
        "{policy}"
    );
    assert!(
        page.headers()["content-type"]
            .to_str()
            .expect("type")
            .starts_with("text/html")
    );
    let body = page.text().await.expect("body");
    assert!(body.contains("<title>Opinion</title>"), "{body}");
    let script = body
        .split("<script src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page links its script");
    let script = app
        .client
        .get(format!("{}{script}", app.address))
        .send()
        .await
        .expect("script");
    assert_eq!(script.status(), 200);
    assert!(script.text().await.expect("script").contains("/api/player/sessions"));
}
