//! What the webhook tests share: registering endpoints over HTTP, committing events the
//! way production does (disabling an endpoint emits `mini_app.webhook_endpoint.disabled`
//! in the same transaction), reading the delivery log, and checking signatures with the
//! independent `standardwebhooks` implementation.

use std::sync::Arc;

use http::{HeaderMap, HeaderName, HeaderValue};
use opinion_testkit::{ManualClock, ReceivedRequest};
use serde_json::{Value, json};
use standardwebhooks::Webhook;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::helpers::{TestApp, TestOperator, json_with_status};

/// The event type the tests emit: disabling any endpoint causes one.
pub const DISABLED: &str = "mini_app.webhook_endpoint.disabled";

/// A registered endpoint and the secret shown at its creation.
pub struct Registered {
    pub id: String,
    pub secret: String,
}

/// Registers an endpoint of `operator` at `url` for `types` and returns it.
pub async fn register(app: &TestApp, operator: &TestOperator, url: &str, types: &[&str]) -> Registered {
    let body = json!({"url": url, "eventTypes": types});
    let created = json_with_status(
        app.post("/api/operator/webhooks/endpoints", &operator.key, &body).await,
        201,
    )
    .await;
    Registered {
        id: created["id"].as_str().expect("id").to_owned(),
        secret: created["secret"].as_str().expect("secret").to_owned(),
    }
}

/// Commits `count` events of the first operator: each registers a throwaway endpoint and
/// disables it, which writes `mini_app.webhook_endpoint.disabled` to the outbox with the
/// change.
pub async fn emit_events(app: &TestApp, count: usize) -> Vec<String> {
    let mut subjects = Vec::new();
    for n in 0..count {
        let subject = register(
            app,
            &app.operator,
            &format!("https://subject{n}.example.invalid/"),
            &["mini_app.trade.processed"],
        )
        .await;
        let path = format!("/api/operator/webhooks/endpoints/{}", subject.id);
        json_with_status(
            app.patch(&path, &app.operator.key, &json!({"enabled": false})).await,
            200,
        )
        .await;
        subjects.push(subject.id);
    }
    subjects
}

/// The first operator's deliveries matching `query` (a query string, without `?`).
pub async fn deliveries(app: &TestApp, query: &str) -> Vec<Value> {
    let path = format!("/api/operator/webhooks/deliveries?limit=200&{query}");
    let page = json_with_status(app.get(&path, &app.operator.key).await, 200).await;
    page["data"].as_array().expect("data").clone()
}

/// A clock for a test's own delivery worker, a second past the wall clock (so events
/// committed through the running service are due).
pub fn clock_after_now() -> Arc<ManualClock> {
    let now = OffsetDateTime::now_utc() + time::Duration::seconds(1);
    Arc::new(ManualClock::new(now.replace_nanosecond(0).unwrap_or(now)))
}

/// Reads an RFC 3339 time of a response.
pub fn time_of(value: &Value) -> OffsetDateTime {
    OffsetDateTime::parse(value.as_str().expect("a time"), &Rfc3339).expect("RFC 3339")
}

fn headers_of(request: &ReceivedRequest) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for (name, value) in &request.headers {
        headers.append(
            HeaderName::from_bytes(name.as_bytes()).expect("header name"),
            HeaderValue::from_str(value).expect("header value"),
        );
    }
    headers
}

/// Verifies a received request with `secret` exactly as a receiver using the Standard
/// Webhooks library would, timestamp tolerance against the wall clock included.
pub fn verifies_now(secret: &str, request: &ReceivedRequest) -> bool {
    let webhook = Webhook::new(secret).expect("a whsec_ secret");
    webhook.verify(&request.body, &headers_of(request)).is_ok()
}

/// Whether one of the request's signatures is the one the Standard Webhooks library
/// computes with `secret` over its id, timestamp and body (whatever the timestamp's age).
pub fn signed_by(secret: &str, request: &ReceivedRequest) -> bool {
    let webhook = Webhook::new(secret).expect("a whsec_ secret");
    let id = request.header("webhook-id").expect("webhook-id");
    let timestamp: i64 = request
        .header("webhook-timestamp")
        .expect("webhook-timestamp")
        .parse()
        .expect("unix seconds");
    let expected = webhook.sign(id, timestamp, &request.body).expect("signable");
    request
        .header("webhook-signature")
        .expect("webhook-signature")
        .split(' ')
        .any(|entry| entry == expected)
}
