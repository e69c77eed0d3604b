//! The operator API's per-operator rate limit: one budget for all of an operator's keys
//! and staff sessions, stated on every answer, refused with 429 once spent, and nobody
//! else's business.

use reqwest::Method;
use reqwest::header::RETRY_AFTER;

use crate::helpers::{TestApp, assert_problem, spawn_configured_app};

/// A small budget, so a test spends it in a few requests: 3 per minute, one every 20 s.
async fn app_allowing_three_a_minute() -> TestApp {
    spawn_configured_app(|config| opinion::config::Config {
        operator_rate_limit_per_minute: 3,
        ..config
    })
    .await
}

fn header(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .map(|value| value.to_str().expect("ASCII header").to_owned())
}

#[tokio::test]
async fn every_answer_states_the_budget_and_the_request_beyond_it_is_refused_with_retry_after() {
    let app = app_allowing_three_a_minute().await;
    let key = app.operator.key.clone();
    for remaining in [2, 1, 0] {
        let response = app.get("/api/operator/markets", &key).await;
        assert_eq!(response.status(), 200);
        assert_eq!(
            header(&response, "ratelimit-policy").as_deref(),
            Some("\"operator\";q=3;w=60")
        );
        let standing = header(&response, "ratelimit").expect("RateLimit header");
        assert!(
            standing.starts_with(&format!("\"operator\";r={remaining};t=")),
            "{standing}"
        );
    }
    let refused = app.get("/api/operator/markets", &key).await;
    let retry_after: u64 = refused
        .headers()
        .get(RETRY_AFTER)
        .expect("Retry-After")
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (1..=20).contains(&retry_after),
        "one request refills in 20 s, not {retry_after}"
    );
    assert!(
        header(&refused, "ratelimit")
            .unwrap()
            .starts_with("\"operator\";r=0;t=")
    );
    let problem = assert_problem(refused, 429, "rate_limited").await;
    assert_eq!(problem["retryAfterSeconds"], retry_after);
}

#[tokio::test]
async fn keys_and_staff_sessions_of_one_operator_share_its_budget_and_other_operators_keep_theirs() {
    let app = app_allowing_three_a_minute().await;
    let reader = app.key_with(&["markets:read"]).await;
    let staff = app.staff_session(&app.operator, "admin@rate.example", &["*"]).await;
    for credential in [&app.operator.key, &reader, &staff] {
        assert_eq!(app.get("/api/operator/markets", credential).await.status(), 200);
    }
    assert_problem(app.get("/api/operator/markets", &reader).await, 429, "rate_limited").await;
    assert_problem(app.get("/api/operator/markets", &staff).await, 429, "rate_limited").await;
    let other = app.new_operator("Another operator").await;
    assert_eq!(app.get("/api/operator/markets", &other.key).await.status(), 200);
}

#[tokio::test]
async fn a_refused_scope_spends_budget_and_an_unauthenticated_request_does_not() {
    let app = app_allowing_three_a_minute().await;
    let reader = app.key_with(&["markets:read"]).await;
    for _ in 0..5 {
        let anonymous = app
            .request(Method::GET, "/api/operator/markets", None)
            .send()
            .await
            .unwrap();
        assert_eq!(anonymous.status(), 401);
        assert_eq!(header(&anonymous, "ratelimit"), None, "no operator, no budget to state");
    }
    for _ in 0..3 {
        let denied = app.get("/api/operator/trades", &reader).await;
        assert!(header(&denied, "ratelimit").is_some());
        assert_problem(denied, 403, "insufficient_scope").await;
    }
    assert_problem(app.get("/api/operator/markets", &reader).await, 429, "rate_limited").await;
}
