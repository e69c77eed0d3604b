//! API keys over HTTP: creation shows the secret once, listing paginates without
//! secrets, revocation and expiry take effect at once, no key can escalate.

use serde_json::json;

use crate::helpers::{assert_problem, json_with_status, spawn_app};

#[tokio::test]
async fn a_created_key_works_at_once_and_its_secret_is_never_shown_again() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/api/operator/api-keys",
            &app.operator.key,
            &json!({"name": "reporting", "scopes": ["api_keys:read"]}),
        )
        .await;
    let created = json_with_status(response, 201).await;
    let secret = created["secret"].as_str().expect("secret").to_owned();
    assert!(secret.starts_with("opk_dev_"), "{created}");
    assert!(created["id"].as_str().is_some_and(|id| id.starts_with("key_")));
    assert_eq!(created["scopes"], json!(["api_keys:read"]));
    assert!(secret.starts_with(created["hint"].as_str().expect("hint").trim_end_matches('…')));

    let listed = json_with_status(app.get("/api/operator/api-keys", &secret).await, 200).await;
    assert!(!listed.to_string().contains(&secret), "a listing leaked a secret");
    assert!(
        listed["data"]
            .as_array()
            .expect("data")
            .iter()
            .all(|key| key.get("secret").is_none())
    );
    let mine = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|k| k["id"] == created["id"])
        .cloned();
    assert!(
        mine.is_some_and(|k| k["lastUsedAt"].is_string()),
        "last use is recorded"
    );
}

#[tokio::test]
async fn listing_walks_every_key_once_with_the_cursor() {
    let app = spawn_app().await;
    for _ in 0..4 {
        app.key_with(&["users:read"]).await;
    }
    let mut seen = Vec::new();
    let mut path = "/api/operator/api-keys?limit=2".to_owned();
    loop {
        let page = json_with_status(app.get(&path, &app.operator.key).await, 200).await;
        let ids: Vec<String> = page["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(|k| k["id"].as_str().expect("id").to_owned())
            .collect();
        assert!(ids.len() <= 2);
        seen.extend(ids);
        if page["hasMore"] == json!(false) {
            assert!(page["nextCursor"].is_null());
            break;
        }
        path = format!(
            "/api/operator/api-keys?limit=2&cursor={}",
            page["nextCursor"].as_str().expect("cursor")
        );
    }
    assert_eq!(seen.len(), 5, "the four keys and the operator's first key");
    let mut sorted = seen.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    sorted.dedup();
    assert_eq!(sorted, seen, "newest first, no duplicates");
}

#[tokio::test]
async fn a_revoked_key_is_refused_at_once_and_revoking_again_is_harmless() {
    let app = spawn_app().await;
    let created = json_with_status(
        app.post(
            "/api/operator/api-keys",
            &app.operator.key,
            &json!({"name": "temp", "scopes": ["api_keys:read"]}),
        )
        .await,
        201,
    )
    .await;
    let secret = created["secret"].as_str().expect("secret");
    let path = format!("/api/operator/api-keys/{}/revoke", created["id"].as_str().expect("id"));
    let revoked = json_with_status(app.post_empty(&path, &app.operator.key).await, 200).await;
    assert!(revoked["revokedAt"].is_string());
    assert_problem(app.get("/api/operator/api-keys", secret).await, 401, "api_key_revoked").await;
    let again = json_with_status(app.post_empty(&path, &app.operator.key).await, 200).await;
    assert_eq!(again["revokedAt"], revoked["revokedAt"]);
}

#[tokio::test]
async fn an_expired_key_is_refused() {
    let app = spawn_app().await;
    let expiry = (time::OffsetDateTime::now_utc() + time::Duration::seconds(1))
        .format(&time::format_description::well_known::Rfc3339)
        .expect("format");
    let created = json_with_status(
        app.post(
            "/api/operator/api-keys",
            &app.operator.key,
            &json!({"name": "short-lived", "scopes": ["api_keys:read"], "expiresAt": expiry}),
        )
        .await,
        201,
    )
    .await;
    let secret = created["secret"].as_str().expect("secret");
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_problem(app.get("/api/operator/api-keys", secret).await, 401, "api_key_expired").await;
}

#[tokio::test]
async fn keys_cannot_escalate_or_carry_staff_scopes_and_refusals_write_nothing() {
    let app = spawn_app().await;
    let restricted = app.key_with(&["api_keys:write", "api_keys:read", "users:read"]).await;
    let broader = app
        .post(
            "/api/operator/api-keys",
            &restricted,
            &json!({"name": "x", "scopes": ["trades:read"]}),
        )
        .await;
    let body = assert_problem(broader, 403, "scope_escalation").await;
    assert_eq!(body["scopes"], json!(["trades:read"]));
    let wildcard = app
        .post(
            "/api/operator/api-keys",
            &restricted,
            &json!({"name": "x", "scopes": ["*"]}),
        )
        .await;
    assert_problem(wildcard, 403, "scope_escalation").await;
    let staff = app
        .post(
            "/api/operator/api-keys",
            &app.operator.key,
            &json!({"name": "x", "scopes": ["staffs:read"]}),
        )
        .await;
    assert_problem(staff, 400, "staff_scope_not_assignable").await;
    let narrower = app
        .post(
            "/api/operator/api-keys",
            &restricted,
            &json!({"name": "x", "scopes": ["users:read"]}),
        )
        .await;
    json_with_status(narrower, 201).await;

    let listed = json_with_status(app.get("/api/operator/api-keys", &restricted).await, 200).await;
    assert_eq!(
        listed["data"].as_array().expect("data").len(),
        3,
        "first key, restricted key, narrower key"
    );
}

#[tokio::test]
async fn invalid_key_requests_name_the_problem_and_write_nothing() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    let cases = [
        (
            json!({"name": "x", "scopes": ["users:write"]}),
            "validation_failed",
            "scopes",
        ),
        (json!({"name": "x", "scopes": []}), "validation_failed", "scopes"),
        (
            json!({"name": "x", "scopes": ["*", "users:read"]}),
            "validation_failed",
            "scopes",
        ),
        (
            json!({"name": "   ", "scopes": ["users:read"]}),
            "validation_failed",
            "name",
        ),
        (
            json!({"name": "x", "scopes": ["users:read"], "expiresAt": "2020-01-01T00:00:00Z"}),
            "validation_failed",
            "expiresAt",
        ),
    ];
    for (body, code, field) in cases {
        let problem = assert_problem(app.post("/api/operator/api-keys", key, &body).await, 400, code).await;
        assert_eq!(problem["field"], field, "{body}");
    }
    for body in [
        json!({"name": "x"}),
        json!({"name": "x", "scopes": ["users:read"], "colour": "red"}),
        json!({"name": "x", "scopes": "users:read"}),
        json!({"name": "x", "scopes": ["users:read"], "expiresAt": "tomorrow"}),
    ] {
        assert_problem(
            app.post("/api/operator/api-keys", key, &body).await,
            400,
            "invalid_body",
        )
        .await;
    }
    let listed = json_with_status(app.get("/api/operator/api-keys", key).await, 200).await;
    assert_eq!(
        listed["data"].as_array().expect("data").len(),
        1,
        "only the operator's first key exists"
    );
}

#[tokio::test]
async fn a_key_revoked_through_one_instance_is_refused_by_every_other_at_once() {
    let app = spawn_app().await;
    let other = app.second_instance().await;
    let secret = app.key_with(&["api_keys:read"]).await;
    let on_other = || {
        app.client
            .get(format!("{other}/api/operator/api-keys"))
            .bearer_auth(&secret)
            .send()
    };
    json_with_status(on_other().await.expect("sent"), 200).await;
    let listed = json_with_status(app.get("/api/operator/api-keys", &app.operator.key).await, 200).await;
    let id = listed["data"][0]["id"].as_str().expect("newest key").to_owned();
    json_with_status(
        app.post_empty(&format!("/api/operator/api-keys/{id}/revoke"), &app.operator.key)
            .await,
        200,
    )
    .await;
    assert_problem(on_other().await.expect("sent"), 401, "api_key_revoked").await;
}
