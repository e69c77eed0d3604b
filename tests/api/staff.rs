//! Dashboard staff over HTTP: login, session token and cookie, management, and the
//! ways a session ends (logout, password reset, member disabled).

use reqwest::Method;
use serde_json::json;

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};

async fn login(app: &TestApp, email: &str, password: &str) -> reqwest::Response {
    app.request(Method::POST, "/api/operator/staff/sessions", None)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .expect("sent")
}

async fn admin(app: &TestApp) -> String {
    app.staff_session(&app.operator, "admin@example.com", &["*"]).await
}

#[tokio::test]
async fn login_returns_a_token_and_an_http_only_cookie_and_both_authenticate() {
    let app = spawn_app().await;
    admin(&app).await;
    let response = login(&app, "Admin@Example.com", "a perfectly long test password").await;
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("cookie")
        .to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let session = json_with_status(response, 201).await;
    assert_eq!(session["staff"]["email"], "admin@example.com");
    let token = session["token"].as_str().expect("token");
    json_with_status(app.get("/api/operator/staff", token).await, 200).await;
    let cookie_pair = cookie.split(';').next().expect("pair").to_owned();
    let by_cookie = app
        .request(Method::GET, "/api/operator/staff", None)
        .header("cookie", cookie_pair)
        .send()
        .await
        .expect("sent");
    json_with_status(by_cookie, 200).await;
}

#[tokio::test]
async fn wrong_passwords_and_unknown_emails_get_the_same_answer() {
    let app = spawn_app().await;
    admin(&app).await;
    assert_problem(
        login(&app, "admin@example.com", "not the password at all").await,
        401,
        "login_failed",
    )
    .await;
    assert_problem(
        login(&app, "nobody@example.com", "a perfectly long test password").await,
        401,
        "login_failed",
    )
    .await;
    let missing = app
        .request(Method::POST, "/api/operator/staff/sessions", None)
        .json(&json!({"email": "x"}))
        .send()
        .await
        .expect("sent");
    assert_problem(missing, 400, "invalid_body").await;
}

#[tokio::test]
async fn logout_ends_the_session_at_once() {
    let app = spawn_app().await;
    let token = admin(&app).await;
    let response = app
        .request(Method::DELETE, "/api/operator/staff/sessions/current", Some(&token))
        .send()
        .await
        .expect("sent");
    assert_eq!(response.status().as_u16(), 204);
    assert_problem(app.get("/api/operator/staff", &token).await, 401, "session_ended").await;
}

#[tokio::test]
async fn members_are_created_listed_changed_and_disabled() {
    let app = spawn_app().await;
    let token = admin(&app).await;
    let created = json_with_status(
        app.post(
            "/api/operator/staff",
            &token,
            &json!({"email": "Ops@Example.com", "name": "Ops", "scopes": ["users:read"]}),
        )
        .await,
        201,
    )
    .await;
    let password = created["temporaryPassword"]
        .as_str()
        .expect("generated password")
        .to_owned();
    assert_eq!(created["email"], "ops@example.com");
    let id = created["id"].as_str().expect("id").to_owned();
    let duplicate = app
        .post(
            "/api/operator/staff",
            &token,
            &json!({"email": "ops@example.com", "name": "Again", "scopes": ["users:read"]}),
        )
        .await;
    assert_problem(duplicate, 409, "staff_email_taken").await;

    let ops_session = json_with_status(login(&app, "ops@example.com", &password).await, 201).await;
    let ops_token = ops_session["token"].as_str().expect("token").to_owned();
    let listed = json_with_status(app.get("/api/operator/staff", &token).await, 200).await;
    assert_eq!(listed["data"].as_array().expect("data").len(), 2);
    assert!(!listed.to_string().contains("argon2"), "no password hash on the wire");

    let path = format!("/api/operator/staff/{id}");
    let renamed = app
        .request(Method::PATCH, &path, Some(&token))
        .json(&json!({"name": "Operations"}))
        .send()
        .await
        .expect("sent");
    assert_eq!(json_with_status(renamed, 200).await["name"], "Operations");
    let disabled = app
        .request(Method::PATCH, &path, Some(&token))
        .json(&json!({"disabled": true}))
        .send()
        .await
        .expect("sent");
    assert_eq!(json_with_status(disabled, 200).await["disabled"], true);
    assert_problem(app.get("/api/operator/staff", &ops_token).await, 401, "session_ended").await;
    assert_problem(login(&app, "ops@example.com", &password).await, 401, "staff_disabled").await;
}

#[tokio::test]
async fn a_password_reset_ends_the_members_sessions_and_the_new_password_works() {
    let app = spawn_app().await;
    let token = admin(&app).await;
    let member_token = app
        .staff_session(&app.operator, "member@example.com", &["users:read"])
        .await;
    let listed = json_with_status(app.get("/api/operator/staff", &token).await, 200).await;
    let member = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|m| m["email"] == "member@example.com")
        .cloned()
        .expect("member");
    let path = format!(
        "/api/operator/staff/{}/reset-password",
        member["id"].as_str().expect("id")
    );
    let reset = json_with_status(app.post_empty(&path, &token).await, 200).await;
    let new_password = reset["temporaryPassword"].as_str().expect("generated");
    assert_problem(
        app.get("/api/operator/users", &member_token).await,
        401,
        "session_ended",
    )
    .await;
    let ended = app
        .request(
            Method::DELETE,
            "/api/operator/staff/sessions/current",
            Some(&member_token),
        )
        .send()
        .await
        .expect("sent");
    assert_problem(ended, 401, "session_ended").await;
    json_with_status(login(&app, "member@example.com", new_password).await, 201).await;
    assert_problem(
        login(&app, "member@example.com", "a perfectly long test password").await,
        401,
        "login_failed",
    )
    .await;
    let chosen = app.post(&path, &token, &json!({"password": "short"})).await;
    assert_problem(chosen, 400, "validation_failed").await;
}

#[tokio::test]
async fn a_restricted_member_cannot_escalate_or_touch_a_stronger_member() {
    let app = spawn_app().await;
    admin(&app).await;
    let manager = app
        .staff_session(
            &app.operator,
            "manager@example.com",
            &["staffs:read", "staffs:write", "users:read"],
        )
        .await;
    let broader = app
        .post(
            "/api/operator/staff",
            &manager,
            &json!({"email": "b@example.com", "name": "B", "scopes": ["*"]}),
        )
        .await;
    assert_problem(broader, 403, "scope_escalation").await;
    let listed = json_with_status(app.get("/api/operator/staff", &manager).await, 200).await;
    let admin_id = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|m| m["email"] == "admin@example.com")
        .expect("admin")["id"]
        .clone();
    let path = format!("/api/operator/staff/{}", admin_id.as_str().expect("id"));
    let demote = app
        .request(Method::PATCH, &path, Some(&manager))
        .json(&json!({"disabled": true}))
        .send()
        .await
        .expect("sent");
    assert_problem(demote, 403, "scope_escalation").await;
    let peer = app
        .post(
            "/api/operator/staff",
            &manager,
            &json!({"email": "peer@example.com", "name": "Peer", "scopes": ["users:read"]}),
        )
        .await;
    json_with_status(peer, 201).await;
}
