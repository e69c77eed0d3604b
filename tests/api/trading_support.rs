//! What the trading tests share: a market created by platform staff, the operator's
//! wallet adapter pointed at a `FakeWallet`, a launched player with a session, and orders.

use opinion_app::opinion::settlement::NewMarket;
use opinion_core::MarketId;
use opinion_testkit::FakeWallet;
use reqwest::{Method, Response};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::helpers::{TestApp, json_with_status};

/// A market open for a day, liquidity 10 000 minor units, a 1% fee.
pub async fn open_market(app: &TestApp) -> MarketId {
    app.settlement
        .create_market(NewMarket {
            question: "Will it rain in Jakarta tomorrow?".into(),
            rules: "Resolves YES if the national weather service reports rain.".into(),
            close_at: OffsetDateTime::now_utc() + Duration::days(1),
            liquidity: 10_000,
            fee_bps: 100,
        })
        .await
        .expect("market")
        .id
}

/// A fake wallet in the test operator's currency, configured as its wallet adapter with
/// `timeout_ms`, verifying the signing secret the service handed out.
pub async fn wallet_with_timeout(app: &TestApp, timeout_ms: u64) -> FakeWallet {
    let wallet = FakeWallet::start_in("USD").await;
    let body = json!({"baseUrl": wallet.url(), "timeoutMs": timeout_ms});
    let response = app
        .request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
        .json(&body)
        .send()
        .await
        .expect("request");
    let saved = json_with_status(response, 201).await;
    wallet.set_secret(saved["signingSecret"].as_str().expect("signingSecret"));
    wallet
}

/// A fake wallet with a 2-second timeout.
pub async fn wallet(app: &TestApp) -> FakeWallet {
    wallet_with_timeout(app, 2_000).await
}

/// Launches `external_user_id` with the operator's key and opens a player session;
/// returns the session token.
pub async fn player(app: &TestApp, external_user_id: &str) -> String {
    player_of(app, &app.operator.key, external_user_id).await
}

/// Launches `external_user_id` with `operator_key` and opens a player session; returns
/// the session token.
pub async fn player_of(app: &TestApp, operator_key: &str, external_user_id: &str) -> String {
    let launched = json_with_status(
        app.post(
            "/api/operator/launch",
            operator_key,
            &json!({"externalUserId": external_user_id, "displayName": "Ana"}),
        )
        .await,
        201,
    )
    .await;
    let token = launched["launchToken"].as_str().expect("launchToken");
    let opened = app
        .request(Method::POST, "/api/player/sessions", None)
        .json(&json!({ "launchToken": token }))
        .send()
        .await
        .expect("request");
    json_with_status(opened, 201).await["sessionToken"]
        .as_str()
        .expect("sessionToken")
        .to_owned()
}

/// An order body.
pub fn order(client_order_id: &str, market: MarketId, side: &str, kind: &str, value: i64) -> Value {
    json!({
        "clientOrderId": client_order_id,
        "marketId": market,
        "side": side,
        "outcome": "yes",
        "kind": kind,
        "value": value.to_string(),
    })
}

/// Places an order as the player.
pub async fn place(app: &TestApp, session: &str, body: &Value) -> Response {
    app.post("/api/player/orders", session, body).await
}

/// Places an order that must be answered 200; returns the trade.
pub async fn placed(app: &TestApp, session: &str, body: &Value) -> Value {
    json_with_status(place(app, session, body).await, 200).await
}

/// An integer sent as a string.
pub fn int(value: &Value) -> i64 {
    value
        .as_str()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("an integer string, got {value}"))
}
