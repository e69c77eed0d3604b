//! The trading path's webhook events reach the operator's endpoint: written to the outbox
//! with each business step and delivered signed, with the catalog's camelCase data.

use std::time::Duration;

use opinion_market::Resolution;
use opinion_testkit::WebhookSink;
use serde_json::Value;

use crate::helpers::spawn_app;
use crate::trading_support::*;
use crate::webhooks_support::{register, verifies_now};

const PATIENCE: Duration = Duration::from_secs(10);

#[tokio::test]
async fn launches_trades_resolutions_and_payouts_are_delivered_as_signed_events() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let types = ["user.launched", "trade.executed", "market.resolved", "redemption.paid"];
    let endpoint = register(&app, &app.operator, &sink.url("events"), &types).await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 10_000);
    let session = player(&app, "p").await;
    let bought = placed(&app, &session, &order("b", market, "buy", "shares", 100)).await;
    app.settlement
        .resolve_market(market, Resolution::Yes)
        .await
        .expect("resolved");
    app.settlement.run_wallet_pass().await.expect("pass");

    app.instance_with_workers().await;
    let received = sink.wait_for(4, PATIENCE).await;
    assert!(received.iter().all(|request| verifies_now(&endpoint.secret, request)));
    let events: Vec<Value> = received
        .iter()
        .map(|request| serde_json::from_slice(&request.body).expect("JSON event"))
        .collect();
    let of = |kind: &str| {
        events
            .iter()
            .find(|event| event["type"] == kind)
            .unwrap_or_else(|| panic!("no {kind} in {events:?}"))
    };
    assert_eq!(of("user.launched")["data"]["externalUserId"], "p");
    let executed = &of("trade.executed")["data"];
    assert_eq!(executed["tradeId"], bought["id"]);
    assert_eq!(executed["marketId"], market.to_string());
    assert_eq!(executed["amount"], bought["amount"], "amounts are integer strings");
    assert_eq!(of("market.resolved")["data"]["winningOutcome"], "yes");
    let paid = &of("redemption.paid")["data"];
    assert_eq!(
        (paid["amount"].as_str(), paid["externalUserId"].as_str()),
        (Some("100"), Some("p"))
    );
    assert!(
        events
            .iter()
            .all(|event| event["operatorId"] == app.operator.id.to_string())
    );
}
