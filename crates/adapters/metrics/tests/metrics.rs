//! The metrics render in the Prometheus text format, the decorators count what their
//! ports did, and the figures read at a scrape are the ones the scrape shows.

use std::sync::Arc;
use std::time::Duration;

use opinion_app::operations::ports::{PoolFigures, PoolRole};
use opinion_app::operations::{OperationalReadings, PoolReading};
use opinion_app::wallet::ports::{BalanceOutcome, MockWalletGateway, WalletAdapterTarget, WalletGateway};
use opinion_app::webhooks::transport::{MockWebhookTransport, OutboundRequest, TransportResponse, WebhookTransport};
use opinion_metrics::{Listener, MeasuredTransport, MeasuredWallet, Metrics};
use opinion_wallet::{BalanceFailure, BalanceReading};
use opinion_webhook::{AttemptResult, SignatureHeaders, SigningSecret};

/// Readings with the request pool `requests` and a delivery pool of 8 that handed out
/// `deliveries_acquired` connections.
fn readings(requests: PoolFigures, deliveries_acquired: u64) -> OperationalReadings {
    OperationalReadings {
        webhook_backlog: 7,
        oldest_undelivered_age: time::Duration::seconds(42),
        manual_reviews_open: 2,
        pools: vec![
            PoolReading {
                role: PoolRole::Requests,
                figures: requests,
            },
            PoolReading {
                role: PoolRole::Deliveries,
                figures: PoolFigures {
                    max_size: 8,
                    acquired_total: deliveries_acquired,
                    ..PoolFigures::default()
                },
            },
        ],
    }
}

fn pool(acquired_total: u64, wait_ms: u64) -> PoolFigures {
    PoolFigures {
        max_size: 16,
        open: 5,
        idle: 4,
        waiting: 1,
        acquired_total,
        timed_out_total: 0,
        wait_total: Duration::from_millis(wait_ms),
    }
}

/// The value of the one line of `text` that starts with `series ` exactly.
fn value(text: &str, series: &str) -> f64 {
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| line.strip_prefix(series).is_some_and(|rest| rest.starts_with(' ')))
        .collect();
    assert_eq!(lines.len(), 1, "{series} in:\n{text}");
    lines[0].rsplit(' ').next().expect("value").parse().expect("number")
}

#[test]
fn a_scrape_shows_the_platform_figures_and_each_pool_under_its_label() {
    let metrics = Metrics::new().expect("metrics");
    let text = metrics.render(&readings(pool(100, 250), 900)).expect("render");

    assert!(text.contains("# TYPE opinion_webhook_backlog gauge"), "{text}");
    assert_eq!(value(&text, "opinion_webhook_backlog"), 7.0);
    assert_eq!(value(&text, "opinion_webhook_oldest_undelivered_age_seconds"), 42.0);
    assert_eq!(value(&text, "opinion_manual_reviews_open"), 2.0);
    let pools = [
        (r#"opinion_db_pool_max_connections{pool="requests"}"#, 16.0),
        (r#"opinion_db_pool_idle_connections{pool="requests"}"#, 4.0),
        (r#"opinion_db_pool_waiting_requests{pool="requests"}"#, 1.0),
        (r#"opinion_db_pool_acquired_total{pool="requests"}"#, 100.0),
        (r#"opinion_db_pool_wait_seconds_total{pool="requests"}"#, 0.25),
        (r#"opinion_db_pool_max_connections{pool="deliveries"}"#, 8.0),
        (r#"opinion_db_pool_acquired_total{pool="deliveries"}"#, 900.0),
        (r#"opinion_db_pool_wait_seconds_total{pool="deliveries"}"#, 0.0),
    ];
    for (series, expected) in pools {
        assert_eq!(value(&text, series), expected, "{series}");
    }
    assert!(value(&text, "process_resident_memory_bytes") > 0.0, "{text}");
}

#[test]
fn the_pool_counters_follow_the_store_totals_without_counting_twice() {
    let metrics = Metrics::new().expect("metrics");
    metrics.render(&readings(pool(100, 250), 900)).expect("render");
    metrics.render(&readings(pool(100, 250), 900)).expect("render again");
    let text = metrics.render(&readings(pool(130, 400), 950)).expect("render later");

    assert_eq!(
        value(&text, r#"opinion_db_pool_acquired_total{pool="requests"}"#),
        130.0
    );
    assert_eq!(
        value(&text, r#"opinion_db_pool_acquired_total{pool="deliveries"}"#),
        950.0
    );
    assert!(
        (value(&text, r#"opinion_db_pool_wait_seconds_total{pool="requests"}"#) - 0.4).abs() < 1e-9,
        "{text}"
    );
}

#[test]
fn a_request_is_labelled_by_its_route_pattern_and_an_unmatched_one_by_one_label() {
    let metrics = Metrics::new().expect("metrics");
    metrics.http_request(
        Some("/api/operator/trades/{trade_id}"),
        "GET",
        200,
        Duration::from_millis(3),
    );
    metrics.http_request(
        Some("/api/operator/trades/{trade_id}"),
        "GET",
        200,
        Duration::from_millis(5),
    );
    metrics.http_request(None, "GET", 404, Duration::from_millis(1));
    metrics.http_request(None, "POST", 404, Duration::from_millis(1));
    let text = metrics.render(&readings(PoolFigures::default(), 0)).expect("render");

    assert_eq!(
        value(
            &text,
            r#"opinion_http_requests_total{method="GET",route="/api/operator/trades/{trade_id}",status="200"}"#
        ),
        2.0
    );
    assert_eq!(
        value(
            &text,
            r#"opinion_http_requests_total{method="POST",route="unmatched",status="404"}"#
        ),
        1.0
    );
    assert_eq!(
        value(
            &text,
            r#"opinion_http_request_duration_seconds_count{method="GET",route="/api/operator/trades/{trade_id}"}"#
        ),
        2.0
    );
}

#[test]
fn a_connection_counts_as_open_by_its_listener_while_its_guard_is_held() {
    let metrics = Metrics::new().expect("metrics");
    let first = metrics.connection_opened(Listener::Service);
    let second = metrics.connection_opened(Listener::Service);
    let page = metrics.connection_opened(Listener::LiveFeed);
    let service = r#"opinion_http_open_connections{listener="service"}"#;
    let live_feed = r#"opinion_http_open_connections{listener="live_feed"}"#;
    let text = metrics.render(&readings(PoolFigures::default(), 0)).expect("render");
    assert_eq!(value(&text, service), 2.0);
    assert_eq!(value(&text, live_feed), 1.0);

    drop((first, page));
    let text = metrics
        .render(&readings(PoolFigures::default(), 0))
        .expect("render again");
    assert_eq!(value(&text, service), 1.0);
    assert_eq!(value(&text, live_feed), 0.0);
    drop(second);
}

fn target() -> WalletAdapterTarget {
    WalletAdapterTarget {
        operator_id: opinion_core::OperatorId::from_u128(1),
        base_url: "http://wallet.test".into(),
        timeout: Duration::from_secs(2),
        signing_secrets: vec![SigningSecret::from_random_bytes(&[7; 32]).expect("secret")],
    }
}

#[tokio::test]
async fn a_measured_wallet_counts_each_call_by_outcome_and_passes_its_answer_through() {
    let mut inner = MockWalletGateway::new();
    let mut answers = vec![
        BalanceReading::Failed {
            why: BalanceFailure::TimedOut,
        },
        BalanceReading::Balance {
            balance: 5_000,
            currency: "USD".parse().expect("currency"),
        },
    ];
    inner.expect_balance().times(2).returning(move |_, _| BalanceOutcome {
        reading: answers.pop().expect("answer"),
        http_status: Some(200),
        elapsed: Duration::from_millis(120),
    });
    let metrics = Arc::new(Metrics::new().expect("metrics"));
    let wallet = MeasuredWallet::new(Arc::new(inner), metrics.clone());

    let first = wallet.balance(&target(), "p").await;
    wallet.balance(&target(), "p").await;

    assert!(matches!(first.reading, BalanceReading::Balance { balance: 5_000, .. }));
    let text = metrics.render(&readings(PoolFigures::default(), 0)).expect("render");
    assert_eq!(
        value(&text, r#"opinion_wallet_calls_total{call="balance",outcome="read"}"#),
        1.0
    );
    assert_eq!(
        value(&text, r#"opinion_wallet_calls_total{call="balance",outcome="failed"}"#),
        1.0
    );
    assert_eq!(
        value(&text, r#"opinion_wallet_call_duration_seconds_sum{call="balance"}"#),
        0.24
    );
}

#[tokio::test]
async fn a_measured_transport_counts_each_attempt_by_result() {
    let mut inner = MockWebhookTransport::new();
    let mut results = vec![
        AttemptResult::Timeout,
        AttemptResult::Status(503),
        AttemptResult::Status(200),
    ];
    inner.expect_send().times(3).returning(move |_| TransportResponse {
        result: results.pop().expect("result"),
        retry_after_secs: None,
        body: None,
        error: None,
        elapsed: Duration::from_millis(10),
    });
    let metrics = Arc::new(Metrics::new().expect("metrics"));
    let transport = MeasuredTransport::new(Arc::new(inner), metrics.clone());
    let request = OutboundRequest {
        url: "https://receiver.test/hook".into(),
        headers: SignatureHeaders {
            webhook_id: "msg_1".into(),
            webhook_timestamp: "1".into(),
            webhook_signature: "v1,x".into(),
        },
        body: b"{}".to_vec(),
        timeout: Duration::from_secs(5),
    };

    let first = transport.send(&request).await;
    transport.send(&request).await;
    transport.send(&request).await;

    assert_eq!(first.result, AttemptResult::Status(200));
    let text = metrics.render(&readings(PoolFigures::default(), 0)).expect("render");
    for result in ["2xx", "5xx", "timeout"] {
        let series = format!(r#"opinion_webhook_attempts_total{{result="{result}"}}"#);
        assert_eq!(value(&text, &series), 1.0, "{result}");
    }
    assert_eq!(value(&text, "opinion_webhook_attempt_duration_seconds_count"), 3.0);
}
