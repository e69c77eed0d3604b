//! A staff member changes their own password over HTTP: the current one is required and
//! counts against the login throttle, the new one meets the policy, and every other
//! session of the member ends while the one it was changed in stays.

use opinion::config::Config;
use reqwest::{Method, Response};
use serde_json::json;

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_configured_app};

const PASSWORD: &str = "a perfectly long test password";
const NEW_PASSWORD: &str = "another perfectly long password";
const PATH: &str = "/api/operator/staff/me/password";

async fn app() -> TestApp {
    spawn_configured_app(|config| Config {
        login_email_attempts: 3,
        ..config
    })
    .await
}

async fn login(app: &TestApp, email: &str, password: &str) -> Response {
    app.request(Method::POST, "/api/operator/staff/sessions", None)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .expect("sent")
}

async fn change(app: &TestApp, token: &str, current: &str, new: &str) -> Response {
    app.post(PATH, token, &json!({"currentPassword": current, "newPassword": new}))
        .await
}

#[tokio::test]
async fn the_change_keeps_this_session_and_ends_the_others() {
    let app = app().await;
    let token = app
        .staff_session(&app.operator, "ana@example.com", &["users:read"])
        .await;
    let other = json_with_status(login(&app, "ana@example.com", PASSWORD).await, 201).await;
    let other = other["token"].as_str().expect("token").to_owned();
    let colleague = app.staff_session(&app.operator, "bob@example.com", &["*"]).await;

    let response = change(&app, &token, PASSWORD, NEW_PASSWORD).await;
    assert_eq!(response.status().as_u16(), 204);

    json_with_status(app.get("/api/operator/users", &token).await, 200).await;
    assert_problem(app.get("/api/operator/users", &other).await, 401, "session_ended").await;
    json_with_status(app.get("/api/operator/staff", &colleague).await, 200).await;
    assert_problem(login(&app, "ana@example.com", PASSWORD).await, 401, "login_failed").await;
    json_with_status(login(&app, "ana@example.com", NEW_PASSWORD).await, 201).await;
}

#[tokio::test]
async fn a_wrong_current_password_is_refused_and_counts_against_the_throttle() {
    let app = app().await;
    let token = app
        .staff_session(&app.operator, "ana@example.com", &["users:read"])
        .await;
    for _ in 0..3 {
        assert_problem(
            change(&app, &token, "not the password at all", NEW_PASSWORD).await,
            403,
            "current_password_wrong",
        )
        .await;
    }
    assert_problem(change(&app, &token, PASSWORD, NEW_PASSWORD).await, 429, "rate_limited").await;
    assert_problem(login(&app, "ana@example.com", PASSWORD).await, 429, "rate_limited").await;
    json_with_status(app.get("/api/operator/users", &token).await, 200).await;
}

#[tokio::test]
async fn a_new_password_outside_the_policy_is_refused_and_changes_nothing() {
    let app = app().await;
    let token = app
        .staff_session(&app.operator, "ana@example.com", &["users:read"])
        .await;
    for new in ["short", PASSWORD] {
        let body = assert_problem(change(&app, &token, PASSWORD, new).await, 400, "validation_failed").await;
        assert_eq!(body["field"], "newPassword", "{body}");
    }
    let missing = app.post(PATH, &token, &json!({"newPassword": NEW_PASSWORD})).await;
    assert_problem(missing, 400, "invalid_body").await;
    json_with_status(login(&app, "ana@example.com", PASSWORD).await, 201).await;
}

#[tokio::test]
async fn an_api_key_cannot_change_a_password() {
    let app = app().await;
    let response = change(&app, &app.operator.key.clone(), PASSWORD, NEW_PASSWORD).await;
    assert_problem(response, 403, "staff_session_required").await;
}
