//! Staff login throttling over HTTP: per e-mail and per client address, a 429 with
//! `Retry-After` before the password is checked, the same answers for known and unknown
//! e-mails, and a lock that ends.

use std::time::Duration;

use opinion::config::Config;
use reqwest::{Method, Response};
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_configured_app};
use crate::instance::Instance;

const PASSWORD: &str = "a perfectly long test password";

/// The test configuration with logins allowing `email` attempts per e-mail and
/// `address` per client address, locking for one second, believing `X-Forwarded-For`
/// from the loopback address (so a test can speak from several client addresses).
fn throttled(config: Config, email: u32, address: u32) -> Config {
    Config {
        login_email_attempts: email,
        login_address_attempts: address,
        login_lock_seconds: 1,
        trusted_proxies: "127.0.0.1".into(),
        ..config
    }
}

/// An app configured by `throttled`, with a `*` member `admin@example.com`.
async fn throttled_app(email: u32, address: u32) -> TestApp {
    let app = spawn_configured_app(|config| throttled(config, email, address)).await;
    app.staff_session(&app.operator, "admin@example.com", &["*"]).await;
    app
}

async fn login_from(app: &TestApp, client: &str, email: &str, password: &str) -> Response {
    app.request(Method::POST, "/api/operator/staff/sessions", None)
        .header("x-forwarded-for", client)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .expect("sent")
}

async fn login(app: &TestApp, email: &str, password: &str) -> Response {
    login_from(app, "203.0.113.9", email, password).await
}

/// Asserts a 429 `rate_limited` whose `Retry-After` header and body agree; the body.
async fn assert_throttled(response: Response) -> Value {
    let retry_after: u64 = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After header in seconds");
    let body = assert_problem(response, 429, "rate_limited").await;
    assert_eq!(body["retryAfterSeconds"], retry_after, "{body}");
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    body
}

#[tokio::test]
async fn an_email_is_throttled_after_its_attempts_even_with_the_right_password_until_the_lock_ends() {
    let app = throttled_app(3, 100).await;
    for _ in 0..3 {
        assert_problem(
            login(&app, "admin@example.com", "not the password at all").await,
            401,
            "login_failed",
        )
        .await;
    }
    assert_throttled(login(&app, "admin@example.com", PASSWORD).await).await;
    assert_throttled(login_from(&app, "198.51.100.7", "Admin@Example.com", PASSWORD).await).await;
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    json_with_status(login(&app, "admin@example.com", PASSWORD).await, 201).await;
}

/// The status and the exact body bytes of an answer, its request id blanked out.
async fn status_and_bytes(response: Response) -> (u16, String) {
    let status = response.status().as_u16();
    let request_id = response
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .expect("a request id")
        .to_owned();
    let body = response.text().await.expect("body");
    (status, body.replace(&request_id, "…"))
}

#[tokio::test]
async fn known_and_unknown_emails_get_byte_identical_refusals_and_throttling() {
    let app = throttled_app(2, 100).await;
    let mut answers = Vec::new();
    for email in ["admin@example.com", "nobody@example.com"] {
        let mut these = Vec::new();
        for _ in 0..3 {
            these.push(status_and_bytes(login(&app, email, "not the password at all").await).await);
        }
        answers.push(these);
    }
    let statuses: Vec<u16> = answers[0].iter().map(|(status, _)| *status).collect();
    assert_eq!(statuses, [401, 401, 429]);
    assert_eq!(answers[0], answers[1]);
    assert_throttled(login(&app, "nobody@example.com", PASSWORD).await).await;
}

#[tokio::test]
async fn an_address_is_throttled_across_emails_and_other_addresses_are_not() {
    let app = throttled_app(100, 4).await;
    for n in 0..4 {
        let email = format!("user{n}@example.com");
        assert_problem(
            login(&app, &email, "not the password at all").await,
            401,
            "login_failed",
        )
        .await;
    }
    assert_throttled(login(&app, "admin@example.com", PASSWORD).await).await;
    json_with_status(
        login_from(&app, "198.51.100.7", "admin@example.com", PASSWORD).await,
        201,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    json_with_status(login(&app, "admin@example.com", PASSWORD).await, 201).await;
}

#[tokio::test]
async fn two_instances_share_the_counters() {
    let app = throttled_app(3, 100).await;
    let second = Instance::start(&app.db, "second", |config| throttled(config, 3, 100)).await;
    let second = second.address;
    for address in [&app.address, &second, &app.address] {
        let response = app
            .client
            .post(format!("{address}/api/operator/staff/sessions"))
            .json(&json!({"email": "admin@example.com", "password": "not the password at all"}))
            .send()
            .await
            .expect("sent");
        assert_problem(response, 401, "login_failed").await;
    }
    let on_second = app
        .client
        .post(format!("{second}/api/operator/staff/sessions"))
        .json(&json!({"email": "admin@example.com", "password": PASSWORD}))
        .send()
        .await
        .expect("sent");
    assert_problem(on_second, 429, "rate_limited").await;
}
