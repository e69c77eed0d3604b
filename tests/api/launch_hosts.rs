//! Launching onto an operator's launch host and serving players there: `host`, `locale`
//! and `metadata` of a launch (echoed in the player's webhook events); the hosted app
//! served on a launch host for its operator only, with `frame-ancestors` naming that
//! operator's origins; the launch token's configured lifetime.

use std::time::Duration;

use opinion_market::Resolution;
use opinion_testkit::WebhookSink;
use reqwest::{Method, Response};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::helpers::{TestApp, TestOperator, assert_problem, json_with_status, spawn_app, spawn_configured_app};
use crate::trading_support::{open_market, order, placed, wallet};
use crate::webhooks_support::register;

async fn launch(app: &TestApp, key: &str, body: Value) -> Response {
    app.post("/api/operator/launch", key, &body).await
}

async fn configure(app: &TestApp, operator: &TestOperator, hosts: &[&str], origins: &[&str]) {
    let response = app
        .request(Method::PUT, "/api/operator/launch-settings", Some(&operator.key))
        .json(&json!({"hosts": hosts, "frameOrigins": origins}))
        .send()
        .await
        .expect("request");
    json_with_status(response, 200).await;
}

/// Exchanges `token` for a session on the service, naming `host` as the request's host.
async fn open_session(app: &TestApp, token: &str, host: Option<&str>) -> Response {
    let mut request = app
        .request(Method::POST, "/api/player/sessions", None)
        .json(&json!({ "launchToken": token }));
    if let Some(host) = host {
        request = request.header("host", host);
    }
    request.send().await.expect("request")
}

/// The hosted app's page as served for `host`.
async fn play_page(app: &TestApp, host: Option<&str>) -> Response {
    let mut request = app.request(Method::GET, "/play", None);
    if let Some(host) = host {
        request = request.header("host", host);
    }
    request.send().await.expect("request")
}

fn policy(page: &Response) -> String {
    page.headers()["content-security-policy"]
        .to_str()
        .expect("policy")
        .to_owned()
}

#[tokio::test]
async fn a_launch_names_one_of_its_operators_hosts_a_locale_and_metadata() {
    let app = spawn_app().await;
    configure(&app, &app.operator, &["play.casino.example"], &[]).await;
    let body = json!({
        "externalUserId": "p",
        "language": "en",
        "host": "play.casino.example",
        "locale": "pt-BR",
        "metadata": {"campaign": "spring", "ids": [1, 2]},
    });
    let launched = json_with_status(launch(&app, &app.operator.key, body).await, 201).await;
    let url = launched["launchUrl"].as_str().expect("launchUrl");
    assert!(url.starts_with("https://play.casino.example/play#launch="), "{url}");
    assert_eq!(launched["locale"], "pt-BR");
    assert_eq!(launched["metadata"], json!({"campaign": "spring", "ids": [1, 2]}));

    let token = launched["launchToken"].as_str().expect("token");
    let opened = json_with_status(open_session(&app, token, Some("play.casino.example")).await, 201).await;
    assert_eq!(
        opened["locale"], "pt-BR",
        "the launch's locale wins over the player's language"
    );

    let plain = json_with_status(
        launch(
            &app,
            &app.operator.key,
            json!({"externalUserId": "p", "metadata": null}),
        )
        .await,
        201,
    )
    .await;
    assert!(plain["launchUrl"].as_str().expect("url").starts_with(&app.address));
    assert!(plain["locale"].is_null() && plain["metadata"].is_null(), "{plain}");
    let token = plain["launchToken"].as_str().expect("token");
    let opened = json_with_status(open_session(&app, token, None).await, 201).await;
    assert_eq!(opened["locale"], "en", "without a launch locale, the player's language");
}

#[tokio::test]
async fn bad_hosts_locales_and_metadata_are_refused_by_field_and_store_nothing() {
    let app = spawn_app().await;
    configure(&app, &app.operator, &["play.casino.example"], &[]).await;
    let other = app.new_operator("Other operator").await;
    configure(&app, &other, &["play.other.example"], &[]).await;
    let large = json!({"note": "x".repeat(4_096)});
    let cases = [
        (json!({"externalUserId": "p", "host": "play.unknown.example"}), "host"),
        (json!({"externalUserId": "p", "host": "play.other.example"}), "host"),
        (
            json!({"externalUserId": "p", "host": "https://play.casino.example"}),
            "host",
        ),
        (json!({"externalUserId": "p", "locale": "pt_BR"}), "locale"),
        (
            json!({"externalUserId": "p", "locale": format!("en{}", "-abcdefgh".repeat(4))}),
            "locale",
        ),
        (json!({"externalUserId": "p", "metadata": large}), "metadata"),
        (json!({"externalUserId": "p", "metadata": ["campaign"]}), "metadata"),
        (json!({"externalUserId": "p", "metadata": "campaign"}), "metadata"),
    ];
    for (body, field) in cases {
        let problem = assert_problem(
            launch(&app, &app.operator.key, body.clone()).await,
            400,
            "validation_failed",
        )
        .await;
        assert_eq!(problem["field"], field, "{body}");
    }
    let users = json_with_status(app.get("/api/operator/users", &app.operator.key).await, 200).await;
    assert_eq!(users["data"].as_array().map(Vec::len), Some(0), "nothing half-written");
}

#[tokio::test]
async fn a_launch_host_serves_its_operators_players_only() {
    let app = spawn_app().await;
    configure(
        &app,
        &app.operator,
        &["play.casino.example"],
        &["https://casino.example"],
    )
    .await;
    let other = app.new_operator("Other operator").await;
    let foreign = json_with_status(launch(&app, &other.key, json!({"externalUserId": "q"})).await, 201).await;
    let foreign_token = foreign["launchToken"].as_str().expect("token");

    let refused = open_session(&app, foreign_token, Some("play.casino.example")).await;
    assert_problem(refused, 401, "launch_host_mismatch").await;
    let elsewhere = json_with_status(open_session(&app, foreign_token, None).await, 201).await;
    let foreign_session = elsewhere["sessionToken"]
        .as_str()
        .expect("a refused token stays usable");

    let on_their_host = app
        .request(Method::GET, "/api/player/markets", Some(foreign_session))
        .header("host", "play.casino.example")
        .send()
        .await
        .expect("request");
    assert_problem(on_their_host, 401, "launch_host_mismatch").await;

    let own = json_with_status(
        launch(&app, &app.operator.key, json!({"externalUserId": "p"})).await,
        201,
    )
    .await;
    let own_token = own["launchToken"].as_str().expect("token");
    let opened = json_with_status(
        open_session(&app, own_token, Some("PLAY.casino.example:443")).await,
        201,
    )
    .await;
    let session = opened["sessionToken"].as_str().expect("session");
    let markets = app
        .request(Method::GET, "/api/player/markets", Some(session))
        .header("host", "play.casino.example")
        .send()
        .await
        .expect("request");
    json_with_status(markets, 200).await;
}

#[tokio::test]
async fn the_page_on_a_launch_host_may_be_framed_by_its_operators_origins_only() {
    let app = spawn_app().await;
    configure(
        &app,
        &app.operator,
        &["play.casino.example"],
        &["https://casino.example", "https://m.casino.example"],
    )
    .await;
    let other = app.new_operator("Other operator").await;
    configure(&app, &other, &["play.other.example"], &[]).await;

    let framed = play_page(&app, Some("play.casino.example")).await;
    assert_eq!(framed.status(), 200);
    let framed = policy(&framed);
    assert!(
        framed.ends_with("frame-ancestors https://casino.example https://m.casino.example"),
        "{framed}"
    );
    assert!(
        framed.contains("script-src 'self'; style-src 'self'; connect-src 'self'"),
        "the page's own policy is kept: {framed}"
    );

    let unframed = policy(&play_page(&app, Some("play.other.example")).await);
    assert!(unframed.ends_with("frame-ancestors 'none'"), "{unframed}");

    let public = policy(&play_page(&app, None).await);
    assert!(
        !public.contains("frame-ancestors"),
        "the public host serves every operator: {public}"
    );
}

#[tokio::test]
async fn the_launch_token_lives_as_long_as_configured() {
    for (configured, expected) in [(None, 60), (Some(15), 15)] {
        let app = spawn_configured_app(|config| match configured {
            Some(seconds) => opinion::config::Config {
                launch_token_ttl_seconds: seconds,
                ..config
            },
            None => config,
        })
        .await;
        let before = OffsetDateTime::now_utc();
        let launched = json_with_status(
            launch(&app, &app.operator.key, json!({"externalUserId": "p"})).await,
            201,
        )
        .await;
        let expires =
            OffsetDateTime::parse(launched["expiresAt"].as_str().expect("expiresAt"), &Rfc3339).expect("time");
        let lifetime = (expires - before).whole_seconds();
        assert!(
            (expected - 1..=expected + 1).contains(&lifetime),
            "{lifetime} s, expected {expected}"
        );
    }
}

#[tokio::test]
async fn the_players_events_echo_the_metadata_of_the_launch_behind_its_session() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let types = [
        "mini_app.login.succeeded",
        "mini_app.trade.submitted",
        "mini_app.market.resolved",
    ];
    register(&app, &app.operator, &sink.url("events"), &types).await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 10_000);
    let metadata = json!({"campaign": "spring", "visit": 7});
    let body = json!({"externalUserId": "p", "metadata": metadata});
    let launched = json_with_status(launch(&app, &app.operator.key, body).await, 201).await;
    let token = launched["launchToken"].as_str().expect("token");
    let opened = json_with_status(open_session(&app, token, None).await, 201).await;
    let session = opened["sessionToken"].as_str().expect("session");
    placed(&app, session, &order("m", market, "buy", "shares", 100)).await;
    app.settlement
        .resolve_market(market, Resolution::Yes)
        .await
        .expect("resolved");

    app.instance_with_workers().await;
    let received = sink.wait_for(3, Duration::from_secs(10)).await;
    let events: Vec<Value> = received
        .iter()
        .map(|request| serde_json::from_slice(&request.body).expect("JSON event"))
        .collect();
    let data = |kind: &str| {
        events
            .iter()
            .find(|event| event["type"] == kind)
            .map(|event| event["data"].clone())
            .unwrap_or_else(|| panic!("no {kind} in {events:?}"))
    };
    assert_eq!(data("mini_app.login.succeeded")["metadata"], metadata);
    assert_eq!(data("mini_app.trade.submitted")["metadata"], metadata);
    assert!(
        data("mini_app.market.resolved").get("metadata").is_none(),
        "a market's event is about no player"
    );
}
