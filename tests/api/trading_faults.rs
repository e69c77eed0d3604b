//! Trading against a real HTTP server playing the operator's wallet when things go wrong:
//! a definite refusal fails the trade and moves nothing; every ambiguous answer (time-out,
//! 5xx, dropped connection, applied-then-500) puts the trade in manual review and is never
//! sent again; staff settle it; a debit that cannot be placed is given back by a
//! compensation; a refused credit unwinds the sale.

use std::time::Duration;

use opinion_app::wallet::{ReviewDecision, ReviewFinding};
use opinion_testkit::{FakeWallet, Fault};
use opinion_wallet::RefusalCode;
use serde_json::Value;

use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_support::*;

/// The player's balance operations, as the operator reads them.
async fn operations(app: &TestApp) -> Vec<Value> {
    let read = app
        .get("/api/operator/balance-operations?externalUserId=p", &app.operator.key)
        .await;
    json_with_status(read, 200).await["data"]
        .as_array()
        .expect("operations")
        .clone()
}

/// Buys 1000 YES shares while the wallet commits `fault`; returns the trade and the wallet.
async fn buy_through(fault: Fault) -> (TestApp, FakeWallet, Value) {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet_with_timeout(&app, 1_000).await;
    wallet.set_balance("p", 50_000);
    wallet.fail_next("p", fault);
    let session = player(&app, "p").await;
    let trade = placed(&app, &session, &order("b1", market, "buy", "shares", 1_000)).await;
    (app, wallet, trade)
}

#[tokio::test]
async fn insufficient_funds_fails_the_trade_and_moves_nothing() {
    let (app, wallet, trade) = buy_through(Fault::Refuse(RefusalCode::InsufficientFunds)).await;
    assert_eq!(
        (trade["status"].as_str(), trade["failureReason"].as_str()),
        (Some("failed"), Some("insufficient_funds"))
    );
    assert_eq!(wallet.balance("p"), Some(50_000));
    let operations = operations(&app).await;
    assert_eq!(operations[0]["state"], "rejected");
    assert_eq!(operations[0]["httpStatus"], 402);
}

#[tokio::test]
async fn every_ambiguous_answer_goes_to_manual_review_and_is_never_sent_again() {
    let faults = [
        Fault::SlowAnswer(Duration::from_millis(1_500)),
        Fault::ServerError(503),
        Fault::DropConnection { applied: true },
        Fault::DropConnection { applied: false },
        Fault::ApplyThenServerError,
    ];
    for fault in faults {
        let (app, wallet, trade) = buy_through(fault.clone()).await;
        assert_eq!(trade["status"], "manual_review", "{fault:?}: {trade}");
        let operations = operations(&app).await;
        assert_eq!(operations[0]["state"], "manual_review", "{fault:?}");
        // Nothing is retried or looked up: a worker pass leaves it alone.
        app.settlement.run_wallet_pass().await.expect("pass");
        tokio::time::sleep(Duration::from_millis(600)).await;
        assert_eq!(wallet.ledger().len(), 1, "{fault:?}: sent once, never again");
        let position = json_with_status(
            app.get("/api/operator/users/portfolio?externalUserId=p", &app.operator.key)
                .await,
            200,
        )
        .await;
        assert!(
            position["positions"].as_array().is_none_or(Vec::is_empty),
            "{fault:?}: nothing placed yet"
        );
    }
}

#[tokio::test]
async fn staff_settle_a_reviewed_debit_found_applied_by_placing_the_buy() {
    let (app, wallet, trade) = buy_through(Fault::ApplyThenServerError).await;
    let operation = &operations(&app).await[0];
    let reference = wallet.ledger()[0].answer.clone();
    assert!(matches!(
        reference,
        opinion_testkit::LedgerAnswer::Answered { status: 500, .. }
    ));
    let resolved = app
        .settlement
        .resolve_review(ReviewDecision {
            operation_id: operation["id"].as_str().expect("id").parse().expect("wop id"),
            finding: ReviewFinding::Applied {
                remote_reference: "wallet-log-4411".into(),
            },
            resolved_by: "ops-ana".into(),
            note: "wallet log line 4411 shows the debit applied".into(),
        })
        .await
        .expect("resolved");
    assert_eq!(resolved.state.as_str(), "resolved_applied");
    let read = app
        .get(
            &format!("/api/operator/trades/{}", trade["id"].as_str().expect("id")),
            &app.operator.key,
        )
        .await;
    let detail = json_with_status(read, 200).await;
    assert_eq!(detail["status"], "executed", "{detail}");
    assert_eq!(wallet.ledger().len(), 1, "settling a review calls nobody");
}

#[tokio::test]
async fn a_debit_that_can_no_longer_be_placed_is_given_back_once() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet_with_timeout(&app, 5_000).await;
    wallet.set_balance("p", 50_000);
    wallet.fail_next("p", Fault::SlowAnswer(Duration::from_millis(800)));
    let session = player(&app, "p").await;
    let body = order("b1", market, "buy", "shares", 1_000);
    let (trade, _) = tokio::join!(placed(&app, &session, &body), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        app.settlement
            .close_market(market)
            .await
            .expect("closed while the debit is in flight");
    });
    assert_eq!(
        (trade["status"].as_str(), trade["failureReason"].as_str()),
        (Some("failed"), Some("market_not_open"))
    );
    assert_eq!(
        wallet.balance("p"),
        Some(50_000 - int(&trade["amount"])),
        "debited, not yet given back"
    );

    // The compensation is sent by the worker; an applied-then-500 answer is ambiguous, so it
    // is sent again with its one key, and the wallet answers the first outcome again.
    wallet.fail_next("p", Fault::ApplyThenServerError);
    app.settlement.run_wallet_pass().await.expect("pass");
    assert_eq!(wallet.balance("p"), Some(50_000));
    let compensation = operations(&app)
        .await
        .into_iter()
        .find(|op| op["flow"] == "buy_compensation")
        .expect("compensation");
    assert_eq!(
        compensation["state"], "prepared",
        "ambiguous compensation waits to be sent again"
    );
    assert_eq!(compensation["metadata"]["marketId"], market.to_string());
    let key = compensation["idempotencyKey"].as_str().expect("key").to_owned();
    assert_eq!(key, format!("buy_compensation:{}", trade["id"].as_str().expect("id")));
    // Nothing is due until its backoff passes; the key of every attempt is the same.
    let sent: Vec<_> = wallet
        .ledger()
        .into_iter()
        .filter(|e| e.idempotency_key() == Some(key.as_str()))
        .collect();
    assert_eq!(sent.len(), 1);
    assert_eq!(wallet.balance("p"), Some(50_000), "given back exactly once");
}

#[tokio::test]
async fn a_refused_credit_unwinds_the_sale() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 50_000);
    let session = player(&app, "p").await;
    placed(&app, &session, &order("b1", market, "buy", "shares", 1_000)).await;
    wallet.fail_next("p", Fault::Refuse(RefusalCode::UserBlocked));
    let sale = placed(&app, &session, &order("s1", market, "sell", "shares", 400)).await;
    assert_eq!(
        (sale["status"].as_str(), sale["failureReason"].as_str()),
        (Some("failed"), Some("user_blocked"))
    );
    let positions = json_with_status(app.get("/api/player/positions", &session).await, 200).await;
    assert_eq!(
        positions["positions"][0]["yesShares"], "1000",
        "the sale is unwound: {positions}"
    );
    let markets = json_with_status(app.get("/api/operator/markets", &app.operator.key).await, 200).await;
    assert_eq!(markets["data"][0]["yesOutstanding"], "1000", "{markets}");
}
