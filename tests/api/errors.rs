//! Malformed requests get a 4xx problem naming what is wrong.

use opinion_app::access::RequestClient;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{assert_problem, spawn_app};

#[tokio::test]
async fn malformed_bodies_media_types_and_sizes() {
    let app = spawn_app().await;
    let post = |body: Vec<u8>, content_type: &'static str| {
        app.request(Method::POST, "/api/operator/api-keys", Some(&app.operator.key))
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    assert_problem(
        post(b"{\"name\": ".to_vec(), "application/json").await.expect("sent"),
        400,
        "malformed_json",
    )
    .await;
    assert_problem(
        post(b"name=x".to_vec(), "application/x-www-form-urlencoded")
            .await
            .expect("sent"),
        415,
        "unsupported_media_type",
    )
    .await;
    let huge = serde_json::to_vec(&json!({"name": "x".repeat(70 * 1024), "scopes": ["users:read"]})).expect("json");
    assert_problem(
        post(huge, "application/json").await.expect("sent"),
        413,
        "payload_too_large",
    )
    .await;
}

#[tokio::test]
async fn bad_ids_cursors_limits_and_query_parameters() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    let bad_id = app
        .post_empty("/api/operator/api-keys/stf_01jdz3qv6mz8x5c0a2t5d4e7f9/revoke", key)
        .await;
    let body = assert_problem(bad_id, 400, "invalid_id").await;
    assert!(body["detail"].as_str().expect("detail").contains("key_"), "{body}");
    assert_problem(
        app.post_empty("/api/operator/api-keys/nonsense/revoke", key).await,
        400,
        "invalid_id",
    )
    .await;
    assert_problem(
        app.get("/api/operator/api-keys?cursor=bm9wZQ", key).await,
        400,
        "invalid_cursor",
    )
    .await;
    assert_problem(
        app.get("/api/operator/api-keys?limit=0", key).await,
        400,
        "invalid_limit",
    )
    .await;
    assert_problem(
        app.get("/api/operator/api-keys?limit=201", key).await,
        400,
        "invalid_limit",
    )
    .await;
    assert_problem(
        app.get("/api/operator/api-keys?limit=ten", key).await,
        400,
        "invalid_query",
    )
    .await;
    assert_problem(
        app.get("/api/operator/api-keys?colour=red", key).await,
        400,
        "invalid_query",
    )
    .await;
    let foreign_cursor = opinion_core::Cursor::after(opinion_core::StaffId::from_u128(5)).encode();
    let response = app
        .get(&format!("/api/operator/api-keys?cursor={foreign_cursor}"), key)
        .await;
    assert_problem(response, 400, "invalid_cursor").await;
}

#[tokio::test]
async fn unknown_routes_and_methods() {
    let app = spawn_app().await;
    assert_problem(
        app.get("/api/operator/nothing-here", &app.operator.key).await,
        404,
        "route_not_found",
    )
    .await;
    let response = app
        .request(Method::DELETE, "/api/operator/api-keys", Some(&app.operator.key))
        .send()
        .await
        .expect("sent");
    assert_eq!(
        response.headers().get("allow").and_then(|v| v.to_str().ok()),
        Some("GET, POST")
    );
    assert_problem(response, 405, "method_not_allowed").await;
}

/// Paths served beside the route table (pages, probes, the player API, the simulated
/// wallet) answer a method they do not serve with 405 and `Allow`, like the table's routes,
/// never 404: the path exists.
#[tokio::test]
async fn a_method_not_served_on_a_path_beside_the_table_is_405_with_allow() {
    let app = spawn_app().await;
    let operator = app.operator.id.to_string();
    let mutations = format!("/simulator-wallet/{operator}/v1/mutations");
    let cases: [(Method, &str, &str); 9] = [
        (Method::TRACE, "/views/portfolio", "GET"),
        (Method::POST, "/views/portfolio", "GET"),
        (Method::PUT, "/healthz", "GET"),
        (Method::DELETE, "/readyz", "GET"),
        (Method::POST, "/play", "GET"),
        (Method::PATCH, "/play/flight", "GET"),
        (Method::GET, "/api/player/orders", "POST"),
        (Method::DELETE, "/api/player/flight/tickets", "POST, GET"),
        (Method::GET, &mutations, "POST"),
    ];
    for (method, path, allow) in cases {
        let response = app.request(method.clone(), path, None).send().await.expect("sent");
        assert_eq!(
            response.headers().get("allow").and_then(|v| v.to_str().ok()),
            Some(allow),
            "{method} {path}"
        );
        assert_problem(response, 405, "method_not_allowed").await;
    }
    let served = app.request(Method::GET, "/healthz", None).send().await.expect("sent");
    assert_eq!(served.status(), 200);
}

#[tokio::test]
async fn bad_credentials_are_told_apart() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let mut typo = key.clone();
    typo.replace_range(12..13, if &key[12..13] == "a" { "b" } else { "a" });
    let staging = opinion_access::ApiKeySecret::generate(opinion_access::ApiKeyEnvironment::Staging, [1; 32]);
    let unknown = {
        let created = app.access.create_operator("other", "USD").await.expect("operator");
        let secret = created.first_key.secret.expose().to_owned();
        app.access
            .revoke_api_key(
                &app.access
                    .authenticate(&secret, &RequestClient::default())
                    .await
                    .expect("auth"),
                created.first_key.record.id,
            )
            .await
            .expect("revoked");
        secret
    };
    for (credential, code) in [
        ("opk_dev_tooshort", "credential_malformed"),
        (typo.as_str(), "api_key_checksum_mismatch"),
        (staging.expose(), "api_key_wrong_environment"),
        ("not-a-jwt", "session_invalid"),
        (unknown.as_str(), "api_key_revoked"),
    ] {
        assert_problem(app.get("/api/operator/api-keys", credential).await, 401, code).await;
    }
    let basic = app
        .request(Method::GET, "/api/operator/api-keys", None)
        .header("authorization", format!("Basic {key}"))
        .send()
        .await
        .expect("sent");
    assert_problem(basic, 401, "credential_malformed").await;
}
