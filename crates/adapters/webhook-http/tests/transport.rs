//! The transport against a real HTTP receiver on a free local port.

use std::time::Duration;

use opinion_app::webhooks::transport::{OutboundRequest, WebhookTransport};
use opinion_testkit::{Reply, WebhookSink};
use opinion_webhook::{AttemptResult, MAX_STORED_RESPONSE_BYTES, SignatureHeaders};
use opinion_webhook_http::{HttpWebhookTransport, TransportSettings};

fn transport(production: bool) -> HttpWebhookTransport {
    HttpWebhookTransport::new(TransportSettings { production }).expect("client")
}

fn request(url: String) -> OutboundRequest {
    within(url, Duration::from_secs(5))
}

/// A request whose endpoint allows `timeout` for the attempt.
fn within(url: String, timeout: Duration) -> OutboundRequest {
    OutboundRequest {
        url,
        headers: SignatureHeaders {
            webhook_id: "evt_01jdz3qv6mz8x5c0a2t5d4e7f9".into(),
            webhook_timestamp: "1795000000".into(),
            webhook_signature: "v1,c2lnbmF0dXJl".into(),
        },
        body: br#"{"type":"mini_app.trade.processed"}"#.to_vec(),
        timeout,
    }
}

#[tokio::test]
async fn posts_the_body_and_signature_headers_and_reads_the_answer() {
    let sink = WebhookSink::start().await;
    sink.script([Reply::status(429).with_header("Retry-After", "120")]);
    let response = transport(false).send(&request(sink.url("a"))).await;
    assert_eq!(response.result, AttemptResult::Status(429));
    assert_eq!(response.retry_after_secs, Some(120));
    assert_eq!(response.body.as_deref(), Some("sink answered 429"));
    let received = sink.received();
    assert_eq!(received.len(), 1);
    let got = &received[0];
    assert_eq!(got.path, "/hooks/a");
    assert_eq!(got.body, br#"{"type":"mini_app.trade.processed"}"#);
    assert_eq!(got.header("content-type"), Some("application/json"));
    assert_eq!(got.header("webhook-id"), Some("evt_01jdz3qv6mz8x5c0a2t5d4e7f9"));
    assert_eq!(got.header("webhook-timestamp"), Some("1795000000"));
    assert_eq!(got.header("webhook-signature"), Some("v1,c2lnbmF0dXJl"));
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let sink = WebhookSink::start().await;
    let elsewhere = sink.url("elsewhere");
    sink.script([Reply::status(307).with_header("Location", &elsewhere)]);
    let response = transport(false).send(&request(sink.url("a"))).await;
    assert_eq!(response.result, AttemptResult::Status(307));
    assert_eq!(sink.received().len(), 1, "the redirect target was never called");
}

#[tokio::test]
async fn a_slow_receiver_times_out() {
    let sink = WebhookSink::start().await;
    sink.script([Reply::status(200).after(Duration::from_secs(5))]);
    let response = transport(false)
        .send(&within(sink.url("slow"), Duration::from_millis(300)))
        .await;
    assert_eq!(response.result, AttemptResult::Timeout);
    assert!(response.elapsed < Duration::from_secs(5));
}

#[tokio::test]
async fn each_request_keeps_to_its_own_endpoints_time_limit() {
    let sink = WebhookSink::start().await;
    sink.answer_by_default(Reply::status(204).after(Duration::from_millis(800)));
    let shared = transport(false);
    let quick = within(sink.url("impatient"), Duration::from_millis(200));
    let slow = within(sink.url("patient"), Duration::from_secs(5));
    let (impatient, patient) = tokio::join!(shared.send(&quick), shared.send(&slow));
    assert_eq!(impatient.result, AttemptResult::Timeout);
    assert!(
        impatient.elapsed < Duration::from_millis(800),
        "{:?}",
        impatient.elapsed
    );
    assert_eq!(patient.result, AttemptResult::Status(204));
}

#[tokio::test]
async fn only_the_start_of_a_long_answer_is_kept() {
    let sink = WebhookSink::start().await;
    sink.script([Reply::status(500).with_body("x".repeat(10 * MAX_STORED_RESPONSE_BYTES))]);
    let response = transport(false).send(&request(sink.url("long"))).await;
    assert_eq!(response.result, AttemptResult::Status(500));
    assert_eq!(response.body.map(|b| b.len()), Some(MAX_STORED_RESPONSE_BYTES));
}

#[tokio::test]
async fn production_refuses_loopback_by_literal_and_by_name_without_connecting() {
    let sink = WebhookSink::start().await;
    let production = transport(true);
    let by_ip = format!("https://127.0.0.1:{}/hooks/a", sink.port());
    let by_name = format!("https://localhost:{}/hooks/a", sink.port());
    for url in [by_ip, by_name] {
        let response = production.send(&request(url.clone())).await;
        assert_eq!(response.result, AttemptResult::ConnectionError, "{url}");
        assert!(
            response.error.as_deref().is_some_and(|e| e.contains("forbidden")),
            "{url}: {:?}",
            response.error
        );
        assert!(production.check_destination(&url).await.is_err(), "{url}");
    }
    assert!(
        production.check_destination(&sink.url("a")).await.is_err(),
        "http in production"
    );
    assert!(sink.received().is_empty());
    let development = transport(false);
    assert_eq!(development.check_destination(&sink.url("a")).await, Ok(()));
    let metadata = development
        .check_destination("http://169.254.169.254/latest/meta-data")
        .await;
    assert!(metadata.is_err());
    let unresolvable = "https://nowhere.invalid/hook";
    assert_eq!(development.check_destination(unresolvable).await, Ok(()));
    assert!(production.check_destination(unresolvable).await.is_err());
}

#[tokio::test]
async fn a_closed_port_is_a_connection_error() {
    let sink = WebhookSink::start().await;
    let url = sink.url("gone");
    drop(sink);
    let response = transport(false).send(&request(url)).await;
    assert_eq!(response.result, AttemptResult::ConnectionError);
    assert!(response.error.is_some());
}
