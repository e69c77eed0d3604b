//! The hosted app's reads and quotes over HTTP: a quote carries the average price, the
//! payout if right and the slippage limit its order carries, and that order executes at
//! the quoted amount; the balance is the wallet's and moves with a buy (unknown, not an
//! error, when the wallet does not answer); the board lists every market on offer with
//! its day's volume and change, traded ones first; a market's page has its price history,
//! up to its resolution once resolved.

use opinion_market::Resolution;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_support::{int, open_market, order, placed, player, wallet};

async fn quote(app: &TestApp, session: &str, body: &Value) -> Value {
    json_with_status(app.post("/api/player/quotes", session, body).await, 200).await
}

#[tokio::test]
async fn a_quote_carries_the_limit_its_order_executes_under() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 100_000);
    let session = player(&app, "p").await;

    let by_amount = quote(&app, &session, &order("q", market, "buy", "amount", 2_000)).await;
    let (shares, amount, limit) = (
        int(&by_amount["shares"]),
        int(&by_amount["amount"]),
        int(&by_amount["limit"]),
    );
    assert!(amount <= 2_000 && shares > 0, "{by_amount}");
    assert_eq!(by_amount["toleranceBps"], 200);
    assert_eq!(limit, amount + (amount * 200 + 9_999) / 10_000, "{by_amount}");
    assert_eq!(int(&by_amount["payoutIfRight"]), shares);
    let average = by_amount["averagePricePpm"].as_i64().expect("average");
    assert_eq!(average, (amount * 1_000_000 + shares / 2) / shares);

    let mut buy = order("b1", market, "buy", "shares", shares);
    buy["limit"] = json!(limit.to_string());
    let bought = placed(&app, &session, &buy).await;
    assert_eq!(bought["status"], "executed", "{bought}");
    assert_eq!(int(&bought["amount"]), amount, "the order pays what the quote said");

    let sale = quote(&app, &session, &order("q2", market, "sell", "shares", shares)).await;
    assert!(int(&sale["limit"]) < int(&sale["amount"]), "{sale}");

    let mut greedy = order("b2", market, "buy", "shares", 1_000);
    greedy["limit"] = json!("1");
    assert_problem(
        app.post("/api/player/orders", &session, &greedy).await,
        409,
        "limit_not_met",
    )
    .await;
}

#[tokio::test]
async fn the_balance_is_the_wallets_and_moves_with_a_buy() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 50_000);
    let session = player(&app, "p").await;

    let before = json_with_status(app.get("/api/player/balance", &session).await, 200).await;
    assert_eq!(before, json!({"state": "known", "balance": "50000", "currency": "USD"}));
    let bought = placed(&app, &session, &order("b1", market, "buy", "shares", 1_000)).await;
    let after = json_with_status(app.get("/api/player/balance", &session).await, 200).await;
    assert_eq!(int(&after["balance"]), 50_000 - int(&bought["amount"]));

    let stranger = player(&app, "unknown-to-the-wallet").await;
    let unknown = json_with_status(app.get("/api/player/balance", &stranger).await, 200).await;
    assert_eq!(unknown, json!({"state": "unknown", "balance": null, "currency": null}));
}

#[tokio::test]
async fn the_board_puts_traded_markets_first_and_a_market_page_has_its_history() {
    let app = spawn_app().await;
    let quiet = open_market(&app).await;
    let traded = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 100_000);
    let session = player(&app, "p").await;
    let first = placed(&app, &session, &order("b1", traded, "buy", "shares", 2_000)).await;
    let second = placed(&app, &session, &order("s1", traded, "sell", "shares", 500)).await;

    let board = json_with_status(app.get("/api/player/board", &session).await, 200).await;
    let ids: Vec<&str> = board["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|m| m["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, [traded.to_string(), quiet.to_string()]);
    let top = &board["data"][0];
    assert_eq!(top["trending"], true);
    assert_eq!(int(&top["volume24h"]), int(&first["amount"]) + int(&second["amount"]));
    assert_eq!(
        top["change24hPpm"].as_i64().expect("change"),
        top["yesPricePpm"].as_i64().expect("price") - 500_000
    );
    assert_eq!(board["data"][1]["change24hPpm"], 0);
    assert_eq!(board["data"][1]["volume24h"], "0");

    let page = json_with_status(app.get(&format!("/api/player/markets/{traded}"), &session).await, 200).await;
    assert_eq!(
        page["market"]["rules"],
        "Resolves YES if the national weather service reports rain."
    );
    let history: Vec<i64> = page["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|p| p["yesPricePpm"].as_i64().expect("price"))
        .collect();
    assert_eq!(history.len(), 4, "opening, two trades, now: {page}");
    assert_eq!(history[0], 500_000);
    assert!(history[1] > history[0] && history[2] < history[1], "{history:?}");
    assert_eq!(history[3], top["yesPricePpm"].as_i64().expect("price"));

    assert_problem(
        app.get("/api/player/markets/mkt_nope", &session).await,
        400,
        "invalid_id",
    )
    .await;

    app.settlement
        .resolve_market(quiet, Resolution::No)
        .await
        .expect("resolved");
    let resolved = json_with_status(app.get(&format!("/api/player/markets/{quiet}"), &session).await, 200).await;
    assert_eq!(
        (&resolved["market"]["status"], &resolved["market"]["resolution"]),
        (&json!("resolved"), &json!("no"))
    );
    let points = resolved["history"].as_array().expect("history");
    assert_eq!(points.len(), 2, "opening and resolution: {resolved}");
    assert_eq!(points[1]["at"], resolved["market"]["resolvedAt"]);
    let board = json_with_status(app.get("/api/player/board", &session).await, 200).await;
    assert_eq!(
        board["data"].as_array().map(Vec::len),
        Some(1),
        "a resolved market is not on offer"
    );
}
