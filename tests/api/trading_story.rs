//! The whole story an operator lives: launch → player session → buy → sell part → the
//! market resolves → the redemption is credited, every step visible in the operator's
//! reads and balance operations, with amounts that add up to the wallet's own ledger.

use opinion_market::Resolution;
use serde_json::Value;

use crate::helpers::{assert_problem, json_with_status, spawn_app};
use crate::trading_support::*;

const START: i64 = 100_000;

#[tokio::test]
async fn launch_trade_resolve_and_redeem_adds_up_to_the_wallets_ledger() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("player-1", START);
    let session = player(&app, "player-1").await;

    let offered = json_with_status(app.get("/api/player/markets", &session).await, 200).await;
    let listed = &offered["data"][0];
    assert_eq!(listed["id"], market.to_string());

    let quote = app
        .post(
            "/api/player/quotes",
            &session,
            &order("q", market, "buy", "shares", 1_000),
        )
        .await;
    let quote = json_with_status(quote, 200).await;
    let bought = placed(&app, &session, &order("buy-1", market, "buy", "shares", 1_000)).await;
    assert_eq!(bought["status"], "executed", "{bought}");
    assert_eq!(bought["amount"], quote["amount"], "the quote is what was paid");
    let again = placed(&app, &session, &order("buy-1", market, "buy", "shares", 1_000)).await;
    assert_eq!(
        again["id"], bought["id"],
        "a repeated client order id returns the first trade"
    );

    let sold = placed(&app, &session, &order("sell-1", market, "sell", "shares", 400)).await;
    assert_eq!(sold["status"], "executed", "{sold}");
    let positions = json_with_status(app.get("/api/player/positions", &session).await, 200).await;
    assert_eq!(positions["positions"][0]["yesShares"], "600", "{positions}");

    app.settlement
        .resolve_market(market, Resolution::Yes)
        .await
        .expect("resolved");
    let pass = app.settlement.run_wallet_pass().await.expect("pass");
    assert_eq!(pass.sent, 1, "the redemption is paid by the wallet worker");

    let (debit, credit) = (int(&bought["amount"]), int(&sold["amount"]));
    let expected = START - debit + credit + 600;
    assert_eq!(wallet.balance("player-1"), Some(expected));
    let ledger = wallet.ledger();
    assert_eq!(ledger.len(), 3, "one call per business action, none repeated");
    assert!(ledger.iter().all(|entry| entry.applied));

    let key = &app.operator.key;
    let operations = json_with_status(
        app.get("/api/operator/balance-operations?externalUserId=player-1", key)
            .await,
        200,
    )
    .await;
    let operations = operations["data"].as_array().expect("operations").clone();
    assert_eq!(operations.len(), 3);
    for operation in &operations {
        assert_eq!(operation["state"], "applied", "{operation}");
        let entry = ledger
            .iter()
            .find(|entry| Some(operation["idempotencyKey"].as_str().unwrap_or_default()) == entry.idempotency_key())
            .expect("every operation is in the wallet's ledger");
        assert_eq!(Some(int(&operation["amount"])), entry.amount());
        assert!(
            operation["remote_reference"].as_str().is_some_and(|r| !r.is_empty()),
            "{operation}"
        );
        assert_eq!(entry.metadata("marketId"), Some(market.to_string().as_str()));
    }
    let signed: i64 = operations
        .iter()
        .map(|op| {
            if op["flow"] == "buy" {
                -int(&op["amount"])
            } else {
                int(&op["amount"])
            }
        })
        .sum();
    assert_eq!(
        START + signed,
        expected,
        "balance operations add up to the wallet's balance"
    );

    let trades = json_with_status(app.get("/api/operator/trades?externalUserId=player-1", key).await, 200).await;
    assert_eq!(trades["data"].as_array().map(Vec::len), Some(2));
    let redemptions = json_with_status(app.get("/api/operator/redemptions", key).await, 200).await;
    assert_eq!(redemptions["data"][0]["status"], "paid", "{redemptions}");
    assert_eq!(int(&redemptions["data"][0]["amount"]), 600);
    let resolutions = json_with_status(app.get("/api/operator/resolutions", key).await, 200).await;
    assert_eq!(resolutions["data"][0]["resolution"], "yes", "{resolutions}");
    let own: Value = json_with_status(app.get("/api/player/trades", &session).await, 200).await;
    assert_eq!(own["data"].as_array().map(Vec::len), Some(2));

    let closed = place(&app, &session, &order("late", market, "buy", "shares", 10)).await;
    assert_problem(closed, 409, "market_not_open").await;
}
