//! Concurrent requests cannot double-spend: two buys racing on one player and one market,
//! or the same client order id sent twice at once, reach the wallet once.

use std::time::Duration;

use opinion_testkit::Fault;

use crate::helpers::spawn_app;
use crate::trading_support::*;

#[tokio::test]
async fn two_buys_racing_on_one_player_and_market_give_one_debit() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 50_000);
    // The first debit is held long enough for the second order to arrive meanwhile.
    wallet.fail_next("p", Fault::SlowAnswer(Duration::from_millis(400)));
    let session = player(&app, "p").await;
    let (a, b) = (
        order("a", market, "buy", "shares", 500),
        order("b", market, "buy", "shares", 500),
    );
    let (first, second) = tokio::join!(place(&app, &session, &a), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        place(&app, &session, &b).await
    });
    let statuses = [first.status().as_u16(), second.status().as_u16()];
    assert!(statuses.contains(&200) && statuses.contains(&409), "{statuses:?}");
    let refused = if first.status() == 409 { first } else { second };
    let problem: serde_json::Value = refused.json().await.expect("problem");
    assert_eq!(problem["code"], "trade_in_progress");
    assert_eq!(wallet.ledger().len(), 1, "one debit");
}

#[tokio::test]
async fn the_same_client_order_id_sent_twice_at_once_gives_one_debit_and_one_trade() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 50_000);
    wallet.fail_next("p", Fault::SlowAnswer(Duration::from_millis(300)));
    let session = player(&app, "p").await;
    let body = order("same", market, "buy", "amount", 2_000);
    let (first, second) = tokio::join!(placed(&app, &session, &body), placed(&app, &session, &body));
    assert_eq!(first["id"], second["id"]);
    assert_eq!(first["status"], "executed");
    assert_eq!(second["status"], "executed", "the repeat waits for the first outcome");
    assert_eq!(wallet.ledger().len(), 1, "one debit");
    assert_eq!(wallet.balance("p"), Some(50_000 - int(&first["amount"])));
}
