//! The limits of `docs/decisions.md` ("Limits") that no other test drives to their bound:
//! each is met exactly and then exceeded by one, and the excess is refused with a problem
//! naming it, or (where the limit cuts rather than refuses) cut.

use reqwest::Method;
use reqwest::header::CONTENT_TYPE;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};

async fn launch(app: &TestApp, body: Value) -> reqwest::Response {
    app.post("/api/operator/launch", &app.operator.key, &body).await
}

#[tokio::test]
async fn bodies_read_whole_are_bounded_like_json_bodies_and_must_be_json() {
    let app = spawn_app().await;
    let staff = app.staff_session(&app.operator, "admin@limits.example", &["*"]).await;
    let over = format!("{{\"password\": \"{}\"}}", "x".repeat(300 * 1024));
    let just_over = format!("{{\"password\": \"{}\"}}", "x".repeat(64 * 1024));
    for body in [over, just_over] {
        let response = app
            .request(Method::POST, "/api/operator/wallet-adapter/test", Some(&staff))
            .header(CONTENT_TYPE, "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_problem(response, 413, "payload_too_large").await;
    }
    let as_text = app
        .request(Method::POST, "/api/operator/wallet-adapter/test", Some(&staff))
        .header(CONTENT_TYPE, "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_problem(as_text, 415, "unsupported_media_type").await;
    let empty = app
        .request(Method::POST, "/api/operator/wallet-adapter/test", Some(&staff))
        .send()
        .await
        .unwrap();
    assert_problem(empty, 409, "wallet_adapter_not_configured").await;
}

#[tokio::test]
async fn the_simulated_wallet_refuses_an_oversized_call_with_a_problem() {
    let app = spawn_app().await;
    let response = app
        .request(
            Method::POST,
            &format!("/simulator-wallet/{}/v1/mutations", app.operator.id),
            None,
        )
        .header(CONTENT_TYPE, "application/json")
        .body("x".repeat(65 * 1024))
        .send()
        .await
        .unwrap();
    assert_problem(response, 413, "payload_too_large").await;
}

#[tokio::test]
async fn a_request_id_of_128_characters_is_kept_and_a_longer_one_replaced() {
    let app = spawn_app().await;
    let echoed = |id: String| {
        let request = app.request(Method::GET, "/healthz", None).header("x-request-id", id);
        async move {
            let response = request.send().await.unwrap();
            response.headers()["x-request-id"].to_str().unwrap().to_owned()
        }
    };
    let longest = "a".repeat(128);
    assert_eq!(echoed(longest.clone()).await, longest);
    let replaced = echoed("a".repeat(129)).await;
    assert!(replaced.starts_with("req_"), "{replaced}");
}

#[tokio::test]
async fn the_trending_list_takes_a_limit_of_1_to_200() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    for limit in [1, 200] {
        let path = format!("/api/operator/markets/trending?limit={limit}");
        json_with_status(app.get(&path, key).await, 200).await;
    }
    for limit in [0, 201] {
        let path = format!("/api/operator/markets/trending?limit={limit}");
        assert_problem(app.get(&path, key).await, 400, "invalid_limit").await;
    }
}

#[tokio::test]
async fn a_return_url_is_at_most_2048_characters() {
    let app = spawn_app().await;
    let url = |length: usize| {
        let base = "https://casino.example/";
        format!("{base}{}", "r".repeat(length - base.len()))
    };
    let fits = launch(&app, json!({"externalUserId": "p-1", "returnUrl": url(2_048)})).await;
    json_with_status(fits, 201).await;
    let problem = assert_problem(
        launch(&app, json!({"externalUserId": "p-2", "returnUrl": url(2_049)})).await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(problem["field"], "returnUrl");
}

#[tokio::test]
async fn a_display_name_is_at_most_200_characters() {
    let app = spawn_app().await;
    let fits = launch(&app, json!({"externalUserId": "p-1", "displayName": "é".repeat(200)})).await;
    json_with_status(fits, 201).await;
    let problem = assert_problem(
        launch(&app, json!({"externalUserId": "p-2", "displayName": "é".repeat(201)})).await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(problem["field"], "displayName");
}

#[tokio::test]
async fn launch_settings_name_at_most_ten_frame_origins() {
    let app = spawn_app().await;
    let origins =
        |count: usize| -> Vec<String> { (0..count).map(|n| format!("https://s{n}.casino.example")).collect() };
    let put = |origins: Vec<String>| {
        app.request(Method::PUT, "/api/operator/launch-settings", Some(&app.operator.key))
            .json(&json!({"hosts": [], "frameOrigins": origins}))
            .send()
    };
    json_with_status(put(origins(10)).await.unwrap(), 200).await;
    let problem = assert_problem(put(origins(11)).await.unwrap(), 400, "validation_failed").await;
    assert_eq!(problem["field"], "frameOrigins");
}

#[tokio::test]
async fn a_staff_e_mail_is_at_most_254_bytes() {
    let app = spawn_app().await;
    let staff = app.staff_session(&app.operator, "admin@limits.example", &["*"]).await;
    let email = |length: usize| {
        let domain = "@limits.example";
        format!("{}{domain}", "m".repeat(length - domain.len()))
    };
    let create = |email: String| {
        let body = json!({"email": email, "name": "Member", "scopes": ["users:read"]});
        let request = app
            .request(Method::POST, "/api/operator/staff", Some(&staff))
            .json(&body);
        async move { request.send().await.unwrap() }
    };
    json_with_status(create(email(254)).await, 201).await;
    let problem = assert_problem(create(email(255)).await, 400, "validation_failed").await;
    assert_eq!(problem["field"], "email");
}

#[tokio::test]
async fn a_request_head_over_the_servers_buffer_is_refused() {
    let app = spawn_app().await;
    let response = app
        .request(Method::GET, "/healthz", None)
        .header("x-padding", "p".repeat(140 * 1024))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 431);
}
