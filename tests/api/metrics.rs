//! `GET /metrics` as a scraper reads it: requests counted by route pattern, wallet calls
//! by outcome, webhook attempts by result, the backlog and the review queue read from the
//! database at the scrape, each connection pool under its own label, open connections by
//! listener; a configured token is required, and production without one serves nothing.

use std::time::Duration;

use opinion::config::Config;
use opinion_testkit::{Fault, WebhookSink};
use reqwest::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::flight_feed::Page;
use crate::flight_support::{enable_flight, spawn_flight_app};
use crate::helpers::{assert_problem, spawn_app, spawn_configured_app, spawn_production_app};
use crate::instance::Instance;
use crate::trading_support::*;
use crate::webhooks_support::register;

const TOKEN: &str = "metrics-scraper-token-0123456789abcdef";

/// The scrape of the instance at `address`, sent with `token` if any; must be 200.
async fn scrape_at(address: &str, token: Option<&str>) -> String {
    let mut request = reqwest::Client::new().get(format!("{address}/metrics"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("scrape");
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .expect("content type")
        .to_owned();
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "{content_type}");
    response.text().await.expect("text")
}

/// The value of the series named exactly `series` (name and labels), or 0 when absent.
fn value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.parse().expect("number"))
}

#[tokio::test]
async fn requests_are_counted_by_route_pattern_and_wallet_calls_by_outcome() {
    let app = spawn_app().await;
    let before = scrape_at(&app.address, None).await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 10_000);
    let session = player(&app, "p").await;
    placed(&app, &session, &order("b1", market, "buy", "shares", 100)).await;
    let refused = placed(&app, &session, &order("b2", market, "buy", "shares", 1_000_000)).await;
    assert_eq!(refused["status"], "failed");
    let trade = app.get("/api/operator/trades?limit=5", &app.operator.key).await;
    assert_eq!(trade.status(), 200);
    let unknown = app
        .get("/api/operator/trades/trd_01J00000000000000000000000", &app.operator.key)
        .await;
    assert_eq!(unknown.status(), 404);
    let nowhere = app.get("/no/such/path/ab12", &app.operator.key).await;
    assert_eq!(nowhere.status(), 404);

    let text = scrape_at(&app.address, None).await;

    assert_eq!(
        value(
            &text,
            r#"opinion_http_requests_total{method="POST",route="/api/player/orders",status="200"}"#
        ),
        2.0,
        "{text}"
    );
    assert_eq!(
        value(
            &text,
            r#"opinion_http_requests_total{method="GET",route="/api/operator/trades",status="200"}"#
        ),
        1.0
    );
    assert_eq!(
        value(
            &text,
            r#"opinion_http_requests_total{method="GET",route="/api/operator/trades/{tradeId}",status="404"}"#
        ),
        1.0,
        "a route with a parameter is labelled by its pattern"
    );
    assert_eq!(
        value(
            &text,
            r#"opinion_http_requests_total{method="GET",route="unmatched",status="404"}"#
        ),
        1.0
    );
    assert!(!text.contains("ab12"), "a path a client sent never becomes a label");
    assert!(!text.contains("trd_01J"), "nor an id in it");
    assert_eq!(
        value(
            &text,
            r#"opinion_wallet_calls_total{call="mutation",outcome="applied"}"#
        ),
        1.0
    );
    assert_eq!(
        value(
            &text,
            r#"opinion_wallet_calls_total{call="mutation",outcome="rejected"}"#
        ),
        1.0
    );
    let requests_pool = r#"opinion_db_pool_acquired_total{pool="requests"}"#;
    let deliveries_pool = r#"opinion_db_pool_acquired_total{pool="deliveries"}"#;
    assert!(value(&text, requests_pool) > value(&before, requests_pool), "{text}");
    assert_eq!(
        value(&text, deliveries_pool),
        value(&before, deliveries_pool),
        "requests never draw from the delivery workers' pool"
    );
    assert!(value(&text, "process_resident_memory_bytes") > 0.0);
}

#[tokio::test]
async fn the_backlog_the_oldest_wait_and_open_reviews_come_from_the_database() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    register(&app, &app.operator, &sink.url("events"), &["mini_app.trade.submitted"]).await;
    let market = open_market(&app).await;
    let wallet = wallet_with_timeout(&app, 1_000).await;
    wallet.set_balance("p", 50_000);
    wallet.fail_next("p", Fault::ServerError(503));
    let session = player(&app, "p").await;
    let trade = placed(&app, &session, &order("b1", market, "buy", "shares", 1_000)).await;
    assert_eq!(trade["status"], "manual_review");
    tokio::time::sleep(Duration::from_millis(1_100)).await;

    let text = scrape_at(&app.address, None).await;
    assert_eq!(value(&text, "opinion_webhook_backlog"), 1.0, "{text}");
    assert!(value(&text, "opinion_webhook_oldest_undelivered_age_seconds") >= 1.0);
    assert_eq!(value(&text, "opinion_manual_reviews_open"), 1.0);
    assert_eq!(
        value(
            &text,
            r#"opinion_wallet_calls_total{call="mutation",outcome="ambiguous"}"#
        ),
        1.0
    );

    let delivering = app.instance_with_workers().await;
    sink.wait_for(1, Duration::from_secs(10)).await;
    let mut delivered = String::new();
    for _ in 0..50 {
        delivered = scrape_at(&delivering, None).await;
        if value(&delivered, "opinion_webhook_backlog") == 0.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(value(&delivered, "opinion_webhook_backlog"), 0.0, "{delivered}");
    assert_eq!(value(&delivered, "opinion_webhook_oldest_undelivered_age_seconds"), 0.0);
    assert_eq!(
        value(&delivered, r#"opinion_webhook_attempts_total{result="2xx"}"#),
        1.0
    );
    assert_eq!(
        value(&delivered, r#"opinion_db_pool_max_connections{pool="deliveries"}"#),
        2.0,
        "the delivery workers' pool is sized by OPINION_WEBHOOK_DATABASE_CONNECTIONS"
    );
    assert!(
        value(&delivered, r#"opinion_db_pool_acquired_total{pool="deliveries"}"#) > 1.0,
        "the workers claim and record over their own pool (beyond its start-up check): {delivered}"
    );
}

#[tokio::test]
async fn a_configured_token_is_required() {
    let app = spawn_configured_app(|config| Config {
        metrics_token: Some(TOKEN.into()),
        ..config
    })
    .await;

    let missing = app.request(Method::GET, "/metrics", None).send().await.expect("scrape");
    assert_problem(missing, 401, "credential_missing").await;
    let wrong = app
        .request(Method::GET, "/metrics", Some("metrics-scraper-token-0123456789abcdeX"))
        .send()
        .await
        .expect("scrape");
    assert_problem(wrong, 401, "metrics_token_invalid").await;
    let operator_key = app
        .request(Method::GET, "/metrics", Some(&app.operator.key))
        .send()
        .await
        .expect("scrape");
    assert_problem(operator_key, 401, "metrics_token_invalid").await;

    let text = scrape_at(&app.address, Some(TOKEN)).await;
    assert!(text.contains("opinion_webhook_backlog 0"), "{text}");
}

#[tokio::test]
async fn production_without_a_token_does_not_serve_metrics() {
    let app = spawn_production_app().await;
    let response = app.request(Method::GET, "/metrics", None).send().await.expect("scrape");
    assert_problem(response, 404, "route_not_found").await;
}

#[test]
fn a_short_token_is_refused_at_start_up() {
    let config = Config {
        metrics_token: Some("short".into()),
        ..Config::default()
    };
    let problems = config.validate().expect_err("refused").0;
    assert!(
        problems.iter().any(|problem| problem.contains("OPINION_METRICS_TOKEN")),
        "{problems:?}"
    );
}

/// Scrapes `address` until the open connections it reports on the service's and the live
/// feed's listeners are `service` (the scrape's own included) and `live_feed`, for up to
/// 10 s.
async fn scrape_until_open(address: &str, service: f64, live_feed: f64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let text = scrape_at(address, None).await;
        let open = (
            value(&text, r#"opinion_http_open_connections{listener="service"}"#),
            value(&text, r#"opinion_http_open_connections{listener="live_feed"}"#),
        );
        if open == (service, live_feed) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "open connections {open:?}, expected ({service}, {live_feed})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn open_connections_are_counted_by_listener() {
    let app = spawn_flight_app().await;
    let instance = Instance::start(&app.db, "counted", |config| Config {
        live_feed_port: Some(0),
        flight_driver: false,
        ..config
    })
    .await;
    enable_flight(&app, &app.operator).await;
    let service = instance.address.trim_start_matches("http://").to_owned();
    let live_url = instance.live_feed.clone().expect("the live feed's URL");

    let mut held = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(&service).await.expect("connected");
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nhost: localhost\r\n\r\n")
            .await
            .expect("written");
        let mut answer = [0_u8; 12];
        stream.read_exact(&mut answer).await.expect("answered");
        assert_eq!(&answer, b"HTTP/1.1 200");
        held.push(stream);
    }
    let watcher = crate::flight_feed::player(&app, &app.operator, "counted-watcher").await;
    let pages = [
        Page::open_url(&app, &live_url, &watcher).await,
        Page::open_url(&app, &live_url, &watcher).await,
    ];

    scrape_until_open(&instance.address, 4.0, 2.0).await;
    drop(held);
    drop(pages);
    scrape_until_open(&instance.address, 1.0, 0.0).await;
}
