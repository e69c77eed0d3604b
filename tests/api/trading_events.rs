//! The player and trading path's webhook events reach the operator's endpoint: each
//! written to the outbox at the moment its name says and delivered signed, with the
//! catalog's camelCase data. A launch URL is no login; opening the session is; a logout
//! and the expiry sweep end a session with one event each.

use std::sync::Arc;
use std::time::Duration;

use opinion_market::Resolution;
use opinion_testkit::{ManualClock, WebhookSink};
use reqwest::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::helpers::{assert_problem, json_with_status, spawn_app};
use crate::trading_support::*;
use crate::webhooks_support::{deliveries, register, time_of, verifies_now};

const PATIENCE: Duration = Duration::from_secs(10);

#[tokio::test]
async fn logins_trades_resolutions_payouts_and_logouts_are_delivered_as_signed_events() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let types = [
        "mini_app.login.succeeded",
        "mini_app.trade.submitted",
        "mini_app.trade.processed",
        "mini_app.trade.failed",
        "mini_app.market.resolved",
        "mini_app.redemption.processed",
        "mini_app.logout.requested",
    ];
    let endpoint = register(&app, &app.operator, &sink.url("events"), &types).await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 10_000);
    let session = player(&app, "p").await;
    let bought = placed(&app, &session, &order("b", market, "buy", "shares", 100)).await;
    let refused = placed(&app, &session, &order("c", market, "buy", "shares", 1_000_000)).await;
    assert_eq!(refused["status"], "failed", "{refused}");
    app.settlement
        .resolve_market(market, Resolution::Yes)
        .await
        .expect("resolved");
    app.settlement.run_wallet_pass().await.expect("pass");
    let logout = app.request(Method::DELETE, "/api/player/sessions/current", Some(&session));
    assert_eq!(logout.send().await.expect("logout").status(), 204);

    app.instance_with_workers().await;
    let received = sink.wait_for(8, PATIENCE).await;
    assert!(received.iter().all(|request| verifies_now(&endpoint.secret, request)));
    let events: Vec<Value> = received
        .iter()
        .map(|request| serde_json::from_slice(&request.body).expect("JSON event"))
        .collect();
    let all = |kind: &str| events.iter().filter(|event| event["type"] == kind).collect::<Vec<_>>();
    let of = |kind: &str| {
        let found = all(kind);
        assert_eq!(found.len(), 1, "one {kind} in {events:?}");
        found[0].clone()
    };
    let login = of("mini_app.login.succeeded")["data"].clone();
    assert_eq!(login["externalUserId"], "p");
    assert!(
        login["playerSessionId"]
            .as_str()
            .is_some_and(|id| id.starts_with("pls_"))
    );
    assert!(login["launchId"].as_str().is_some_and(|id| id.starts_with("lch_")));
    assert!(time_of(&login["expiresAt"]) > time_of(&login["loggedInAt"]));
    let submitted = all("mini_app.trade.submitted");
    assert_eq!(
        submitted.len(),
        2,
        "both orders were accepted before their wallet calls"
    );
    let first = submitted
        .iter()
        .find(|event| event["data"]["tradeId"] == bought["id"])
        .expect("the buy was submitted");
    assert_eq!(first["data"]["side"], "buy");
    assert_eq!(first["data"]["shares"], "100");
    let processed = &of("mini_app.trade.processed")["data"];
    assert_eq!(processed["tradeId"], bought["id"]);
    assert_eq!(processed["marketId"], market.to_string());
    assert_eq!(processed["amount"], bought["amount"], "amounts are integer strings");
    assert!(time_of(&processed["processedAt"]) >= time_of(&first["data"]["submittedAt"]));
    let failed = &of("mini_app.trade.failed")["data"];
    assert_eq!(
        (&failed["tradeId"], &failed["reason"]),
        (&refused["id"], &json!("insufficient_funds"))
    );
    assert_eq!(of("mini_app.market.resolved")["data"]["winningOutcome"], "yes");
    let paid = &of("mini_app.redemption.processed")["data"];
    assert_eq!(
        (paid["amount"].as_str(), paid["externalUserId"].as_str()),
        (Some("100"), Some("p"))
    );
    let logged_out = &of("mini_app.logout.requested")["data"];
    assert_eq!(logged_out["playerSessionId"], login["playerSessionId"]);
    assert!(
        events
            .iter()
            .all(|event| event["operatorId"] == app.operator.id.to_string())
    );
    let types: Vec<&str> = events.iter().filter_map(|event| event["type"].as_str()).collect();
    assert!(types.iter().all(|kind| kind.starts_with("mini_app.")), "{types:?}");
}

#[tokio::test]
async fn a_launch_url_is_no_login_and_a_logout_ends_the_session_at_once() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let types = ["mini_app.login.succeeded", "mini_app.logout.requested"];
    register(&app, &app.operator, &sink.url("players"), &types).await;
    let launched = json_with_status(
        app.post(
            "/api/operator/launch",
            &app.operator.key,
            &json!({"externalUserId": "q"}),
        )
        .await,
        201,
    )
    .await;
    assert!(
        deliveries(&app, "").await.is_empty(),
        "making a launch URL writes no event"
    );

    let token = launched["launchToken"].as_str().expect("launchToken");
    let opened = app
        .request(Method::POST, "/api/player/sessions", None)
        .json(&json!({ "launchToken": token }))
        .send()
        .await
        .expect("request");
    let session = json_with_status(opened, 201).await["sessionToken"]
        .as_str()
        .expect("sessionToken")
        .to_owned();
    let logins = deliveries(&app, "eventType=mini_app.login.succeeded").await;
    assert_eq!(logins.len(), 1, "redeeming the token is the login");

    let logout = || app.request(Method::DELETE, "/api/player/sessions/current", Some(&session));
    assert_eq!(logout().send().await.expect("logout").status(), 204);
    let markets = app.request(Method::GET, "/api/player/markets", Some(&session));
    assert_problem(markets.send().await.expect("request"), 401, "session_ended").await;
    assert_problem(logout().send().await.expect("again"), 401, "session_ended").await;
    let nobody = app.request(Method::DELETE, "/api/player/sessions/current", None);
    assert_eq!(nobody.send().await.expect("request").status(), 401);
    assert_eq!(
        deliveries(&app, "eventType=mini_app.logout.requested").await.len(),
        1,
        "one logout, one event"
    );
}

#[tokio::test]
async fn an_expired_session_is_swept_once_with_its_event_and_a_logged_out_one_never() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let types = ["mini_app.session.expired", "mini_app.logout.requested"];
    register(&app, &app.operator, &sink.url("players"), &types).await;
    let expiring = player(&app, "x").await;
    let leaving = player(&app, "y").await;
    let logout = app.request(Method::DELETE, "/api/player/sessions/current", Some(&leaving));
    assert_eq!(logout.send().await.expect("logout").status(), 204);

    let clock = Arc::new(ManualClock::new(OffsetDateTime::now_utc()));
    let sweeper = app.players_with_clock(clock.clone()).await;
    assert_eq!(
        sweeper.end_expired_sessions(100).await.expect("sweep"),
        0,
        "nothing has expired yet"
    );
    clock.advance(time::Duration::hours(8) + time::Duration::minutes(1));
    let (a, b) = tokio::join!(sweeper.end_expired_sessions(100), sweeper.end_expired_sessions(100));
    assert_eq!(
        a.expect("sweep a") + b.expect("sweep b"),
        1,
        "two sweeps at once end it once"
    );
    assert_eq!(sweeper.end_expired_sessions(100).await.expect("sweep"), 0);

    let expired = deliveries(&app, "eventType=mini_app.session.expired").await;
    assert_eq!(expired.len(), 1);
    let markets = app.request(Method::GET, "/api/player/markets", Some(&expiring));
    assert_problem(markets.send().await.expect("request"), 401, "session_ended").await;

    // The event is dated at the expiry, which the sweep's clock is past.
    let worker = app.webhooks_with_clock(clock).await;
    assert_eq!(worker.deliver_due(10).await.expect("deliver").delivered, 2);
    let received = sink.received();
    let expiry: Value = received
        .iter()
        .map(|request| serde_json::from_slice::<Value>(&request.body).expect("JSON"))
        .find(|event| event["type"] == "mini_app.session.expired")
        .expect("delivered");
    assert_eq!(expiry["data"]["externalUserId"], "x");
    assert_eq!(expiry["createdAt"], expiry["data"]["expiredAt"], "dated at the expiry");
}
