//! An order's session is made sure of inside the order's own opening transaction, not
//! before it: a session that ended before the order was sent is refused with every kind
//! of body (the session's refusal before the body's), for buys and sales alike, with no
//! trade written and no wallet call; a token that is not ours is refused at once.

use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_support::{open_market, order, place, placed, player, wallet};

/// Order bodies of every shape: valid ones, a malformed one, one without a client order
/// id, and one whose client order id breaks its rules.
fn bodies(market: opinion_core::MarketId) -> Vec<Value> {
    let mut unnamed = order("unused", market, "buy", "amount", 1_000);
    unnamed.as_object_mut().expect("object").remove("clientOrderId");
    vec![
        order("after-buy", market, "buy", "amount", 1_000),
        order("after-sell", market, "sell", "shares", 10),
        json!({"marketId": market, "side": "sideways"}),
        unnamed,
        order("not an id!", market, "buy", "amount", 1_000),
    ]
}

async fn trade_count(app: &TestApp) -> usize {
    let trades = json_with_status(app.get("/api/operator/trades", &app.operator.key).await, 200).await;
    trades["data"].as_array().expect("data").len()
}

#[tokio::test]
async fn an_order_of_an_ended_session_is_refused_whatever_its_body_and_writes_nothing() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 100_000);
    let session = player(&app, "p").await;
    let bought = placed(&app, &session, &order("first", market, "buy", "amount", 2_000)).await;
    assert_eq!(bought["status"], "executed", "{bought}");
    let ledger_before = wallet.ledger().len();

    let logout = app
        .request(reqwest::Method::DELETE, "/api/player/sessions/current", Some(&session))
        .send()
        .await
        .expect("log out");
    assert_eq!(logout.status(), 204);

    for body in bodies(market) {
        let refused = assert_problem(place(&app, &session, &body).await, 401, "session_ended").await;
        assert!(!refused.to_string().contains("ses_"), "{body}: {refused}");
    }
    assert_eq!(trade_count(&app).await, 1, "only the order placed before the logout");
    assert_eq!(wallet.ledger().len(), ledger_before, "no wallet call after the logout");
}

#[tokio::test]
async fn an_order_with_a_token_that_is_not_ours_is_refused_before_anything_is_read() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let session = player(&app, "p").await;
    let forged = format!("{}x", session);

    for body in bodies(market) {
        assert_problem(place(&app, &forged, &body).await, 401, "session_invalid").await;
    }
    assert_eq!(trade_count(&app).await, 0);
}

#[tokio::test]
async fn a_live_session_still_buys_and_sells_and_a_repeated_order_returns_its_first_trade() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 100_000);
    let session = player(&app, "p").await;

    let buy = order("buy-1", market, "buy", "shares", 500);
    let bought = placed(&app, &session, &buy).await;
    assert_eq!(bought["status"], "executed", "{bought}");
    assert_eq!(
        placed(&app, &session, &buy).await,
        bought,
        "a replay is the first trade"
    );
    let sold = placed(&app, &session, &order("sell-1", market, "sell", "shares", 200)).await;
    assert_eq!(sold["status"], "executed", "{sold}");
    assert_eq!(trade_count(&app).await, 2);
}
