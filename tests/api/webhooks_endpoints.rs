//! Webhook endpoints over HTTP: validation, the secret shown once (an operator's own never),
//! each endpoint's delivery settings, rotation with both signatures during the overlap,
//! deletion by both routes, tenant isolation.

use opinion_testkit::WebhookSink;
use reqwest::Method;
use serde_json::json;
use time::Duration;

use crate::helpers::{assert_problem, json_with_status, spawn_app};
use crate::webhooks_support::*;

const ENDPOINTS: &str = "/api/operator/webhooks/endpoints";

#[tokio::test]
async fn registration_validates_each_field_and_writes_nothing_when_refused() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    let cases = [
        (
            json!({"url": "ftp://hooks.example.invalid/", "eventTypes": ["mini_app.trade.processed"]}),
            "url",
        ),
        (
            json!({"url": "http://169.254.169.254/latest", "eventTypes": ["mini_app.trade.processed"]}),
            "url",
        ),
        (
            json!({"url": "https://user:pw@hooks.example.invalid/", "eventTypes": ["mini_app.trade.processed"]}),
            "url",
        ),
        (
            json!({"url": "https://hooks.example.invalid/", "eventTypes": []}),
            "eventTypes",
        ),
        (
            json!({"url": "https://hooks.example.invalid/", "eventTypes": ["mini_app.trade.*"]}),
            "eventTypes",
        ),
        (
            json!({"url": "https://hooks.example.invalid/", "eventTypes": ["mini_app.trade.failed", "mini_app.trade.failed"]}),
            "eventTypes",
        ),
        (
            json!({"url": "https://hooks.example.invalid/", "eventTypes": ["mini_app.trade.failed"], "description": " "}),
            "description",
        ),
        (
            json!({"url": "https://hooks.example.invalid/", "eventTypes": ["mini_app.trade.failed"], "rateLimitPerMinute": 0}),
            "rateLimitPerMinute",
        ),
    ];
    let with = |field: &str, value: serde_json::Value| {
        let mut body = json!({"url": "https://hooks.example.invalid/", "eventTypes": ["mini_app.trade.failed"]});
        body[field] = value;
        (body, field.to_owned())
    };
    let mut cases: Vec<(serde_json::Value, String)> = cases
        .into_iter()
        .map(|(body, field)| (body, field.to_owned()))
        .collect();
    cases.push((
        json!({"url": "https://hooks.example.invalid/", "eventTypes": ["trade.executed"]}),
        "eventTypes".into(),
    ));
    for attempts in [0, 21, -1] {
        cases.push(with("maxAttempts", json!(attempts)));
    }
    for secs in [0, 31, -15] {
        cases.push(with("timeoutSeconds", json!(secs)));
    }
    for secret in [
        "x",
        "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "whsec_AAAA",
        "whsec_not base64 at all!",
        "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==",
    ] {
        cases.push(with("secret", json!(secret)));
    }
    for (body, field) in cases {
        let problem = assert_problem(app.post(ENDPOINTS, key, &body).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field.as_str(), "{body}");
        assert!(
            !problem.to_string().contains("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
            "a refused secret is not echoed: {problem}"
        );
    }
    let unknown =
        json!({"url": "https://hooks.example.invalid/", "eventTypes": ["mini_app.trade.failed"], "signingSecret": "x"});
    assert_problem(app.post(ENDPOINTS, key, &unknown).await, 400, "invalid_body").await;
    let listed = json_with_status(app.get(ENDPOINTS, key).await, 200).await;
    assert_eq!(listed["data"], json!([]));
}

#[tokio::test]
async fn the_secret_is_shown_at_creation_only() {
    let app = spawn_app().await;
    let body = json!({
        "url": "https://hooks.example.invalid/opinion",
        "eventTypes": ["mini_app.trade.processed", "mini_app.market.resolved"],
        "description": "settlement service",
        "rateLimitPerMinute": 600,
    });
    let created = json_with_status(app.post(ENDPOINTS, &app.operator.key, &body).await, 201).await;
    let secret = created["secret"].as_str().expect("secret").to_owned();
    assert!(secret.starts_with("whsec_"), "{created}");
    assert!(created["id"].as_str().is_some_and(|id| id.starts_with("whe_")));
    assert_eq!(
        created["eventTypes"],
        json!(["mini_app.trade.processed", "mini_app.market.resolved"])
    );
    assert_eq!(created["enabled"], true);
    assert_eq!(created["rateLimitPerMinute"], 600);
    assert_eq!(
        (&created["maxAttempts"], &created["timeoutSeconds"]),
        (&json!(12), &json!(15))
    );

    let listed = json_with_status(app.get(ENDPOINTS, &app.operator.key).await, 200).await;
    assert!(!listed.to_string().contains(&secret), "a listing leaked the secret");
    assert_eq!(listed["data"][0]["description"], "settlement service");
    let path = format!("{ENDPOINTS}/{}", created["id"].as_str().expect("id"));
    let changed = json_with_status(
        app.patch(
            &path,
            &app.operator.key,
            &json!({"description": null, "rateLimitPerMinute": null}),
        )
        .await,
        200,
    )
    .await;
    assert!(changed.get("secret").is_none(), "{changed}");
    assert!(changed["description"].is_null() && changed["rateLimitPerMinute"].is_null());
}

#[tokio::test]
async fn delivery_settings_are_set_shown_and_changed_and_an_own_secret_is_never_shown() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    let own = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let body = json!({
        "url": "https://hooks.example.invalid/own",
        "eventTypes": ["mini_app.trade.processed"],
        "maxAttempts": 6,
        "timeoutSeconds": 5,
        "secret": own,
    });
    let created = json_with_status(app.post(ENDPOINTS, key, &body).await, 201).await;
    assert!(
        created.get("secret").is_none(),
        "an operator's own secret is not sent back: {created}"
    );
    assert_eq!(
        (&created["maxAttempts"], &created["timeoutSeconds"]),
        (&json!(6), &json!(5))
    );
    let listed = json_with_status(app.get(ENDPOINTS, key).await, 200).await;
    assert!(
        !listed.to_string().contains("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
        "{listed}"
    );
    assert_eq!(listed["data"][0]["maxAttempts"], 6);

    let path = format!("{ENDPOINTS}/{}", created["id"].as_str().expect("id"));
    let changed = json_with_status(
        app.patch(&path, key, &json!({"maxAttempts": 20, "timeoutSeconds": 30}))
            .await,
        200,
    )
    .await;
    assert_eq!(
        (&changed["maxAttempts"], &changed["timeoutSeconds"]),
        (&json!(20), &json!(30))
    );
    assert_eq!(changed["description"], created["description"], "other fields are kept");
    for (change, field) in [
        (json!({"maxAttempts": 21}), "maxAttempts"),
        (json!({"timeoutSeconds": 0}), "timeoutSeconds"),
        (json!({"secret": "whsec_short"}), "secret"),
        (json!({"secret": own}), "secret"),
    ] {
        let problem = assert_problem(app.patch(&path, key, &change).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{change}");
    }
    for cleared in ["maxAttempts", "timeoutSeconds"] {
        let problem = assert_problem(
            app.patch(&path, key, &json!({ cleared: null })).await,
            400,
            "validation_failed",
        )
        .await;
        assert_eq!(problem["field"], cleared, "a setting cannot be cleared");
    }
    let kept = json_with_status(app.get(ENDPOINTS, key).await, 200).await;
    assert_eq!(
        (&kept["data"][0]["maxAttempts"], &kept["data"][0]["timeoutSeconds"]),
        (&json!(20), &json!(30))
    );
}

#[tokio::test]
async fn rotating_to_an_own_secret_signs_with_both_during_the_overlap_and_shows_neither() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let observer = register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    let path = format!("{ENDPOINTS}/{}", observer.id);
    let own = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let rotated = json_with_status(app.patch(&path, &app.operator.key, &json!({"secret": own})).await, 200).await;
    assert!(rotated.get("secret").is_none(), "{rotated}");
    assert!(rotated["previousSecretExpiresAt"].is_string());

    emit_events(&app, 1).await;
    let worker = app.webhooks_with_clock(clock_after_now()).await;
    worker.deliver_due(10).await.expect("deliver");
    let received = sink.received();
    assert_eq!(received.len(), 1);
    assert!(verifies_now(own, &received[0]), "signed with the operator's own secret");
    assert!(verifies_now(&observer.secret, &received[0]), "and the previous one");
}

#[tokio::test]
async fn during_a_rotation_both_secrets_sign_and_afterwards_only_the_new_one() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let observer = register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    let path = format!("{ENDPOINTS}/{}", observer.id);
    let rotated = json_with_status(
        app.patch(&path, &app.operator.key, &json!({"rotateSecret": true}))
            .await,
        200,
    )
    .await;
    let new_secret = rotated["secret"].as_str().expect("new secret").to_owned();
    assert_ne!(new_secret, observer.secret);
    let overlap_ends = time_of(&rotated["previousSecretExpiresAt"]);

    emit_events(&app, 1).await;
    let clock = clock_after_now();
    let worker = app.webhooks_with_clock(clock.clone()).await;
    worker.deliver_due(10).await.expect("deliver");
    let during = sink.received();
    assert_eq!(during.len(), 1);
    assert!(verifies_now(&new_secret, &during[0]));
    assert!(verifies_now(&observer.secret, &during[0]));

    clock.set(overlap_ends + Duration::seconds(1));
    emit_events(&app, 1).await;
    worker.deliver_due(10).await.expect("deliver");
    let after = sink.received();
    assert_eq!(after.len(), 2);
    assert!(signed_by(&new_secret, &after[1]));
    assert!(!signed_by(&observer.secret, &after[1]));
    assert_eq!(
        after[1].header("webhook-signature").map(|s| s.split(' ').count()),
        Some(1)
    );
}

#[tokio::test]
async fn both_delete_routes_remove_an_endpoint_and_keep_its_log() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    let first = register(&app, &app.operator, "https://a.example.invalid/", &[DISABLED]).await;
    let second = register(&app, &app.operator, "https://b.example.invalid/", &[DISABLED]).await;
    emit_events(&app, 1).await;

    let deleted = app
        .request(Method::DELETE, &format!("{ENDPOINTS}/{}", first.id), Some(key))
        .send()
        .await
        .expect("sent");
    assert_eq!(deleted.status().as_u16(), 204);
    let posted = app.post_empty(&format!("{ENDPOINTS}/{}/delete", second.id), key).await;
    assert_eq!(posted.status().as_u16(), 204);
    let again = app.post_empty(&format!("{ENDPOINTS}/{}/delete", second.id), key).await;
    assert_problem(again, 404, "not_found").await;

    let listed = json_with_status(app.get(ENDPOINTS, key).await, 200).await;
    assert!(!listed.to_string().contains(&first.id) && !listed.to_string().contains(&second.id));
    let log = deliveries(&app, &format!("endpointId={}", first.id)).await;
    assert_eq!(log.len(), 1, "the delivery log outlives the endpoint");
    assert_eq!(log[0]["status"], "cancelled");
}

#[tokio::test]
async fn another_operators_endpoints_are_invisible_and_untouchable() {
    let app = spawn_app().await;
    let other = app.new_operator("Other operator").await;
    let theirs = register(
        &app,
        &other,
        "https://theirs.example.invalid/",
        &["mini_app.trade.processed"],
    )
    .await;
    let path = format!("{ENDPOINTS}/{}", theirs.id);
    let key = &app.operator.key;
    assert_problem(
        app.patch(&path, key, &json!({"enabled": false})).await,
        404,
        "not_found",
    )
    .await;
    let deleted = app
        .request(Method::DELETE, &path, Some(key))
        .send()
        .await
        .expect("sent");
    assert_problem(deleted, 404, "not_found").await;
    assert_problem(app.post_empty(&format!("{path}/delete"), key).await, 404, "not_found").await;
    let mine = json_with_status(app.get(ENDPOINTS, key).await, 200).await;
    assert_eq!(mine["data"], json!([]));
    let still = json_with_status(app.get(ENDPOINTS, &other.key).await, 200).await;
    assert_eq!(still["data"][0]["enabled"], true);
    assert_problem(
        app.patch(&format!("{ENDPOINTS}/whd_01jdz3qv6mz8x5c0a2t5d4e7f9"), key, &json!({}))
            .await,
        400,
        "invalid_id",
    )
    .await;
}

#[tokio::test]
async fn an_operator_has_at_most_its_cap_of_endpoints_and_a_delete_makes_room() {
    let app = spawn_app().await;
    let limit = opinion_access::OperatorCap::WebhookEndpoints.limit();
    let mut first = None;
    for n in 0..limit {
        let created = register(&app, &app.operator, &format!("http://127.0.0.1:9/{n}"), &[DISABLED]).await;
        first.get_or_insert(created.id);
    }
    let body = json!({"url": "http://127.0.0.1:9/one-more", "eventTypes": [DISABLED]});
    let refused = app
        .post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
        .await;
    let problem = assert_problem(refused, 409, "cap_reached").await;
    assert_eq!(
        problem["detail"],
        format!("the operator already has {limit} webhook endpoints, the most it may have; delete one first")
    );
    let listed = json_with_status(
        app.get("/api/operator/webhooks/endpoints?limit=200", &app.operator.key)
            .await,
        200,
    )
    .await;
    assert_eq!(
        listed["data"].as_array().expect("data").len(),
        limit as usize,
        "nothing written"
    );

    let path = format!("/api/operator/webhooks/endpoints/{}", first.expect("an endpoint"));
    let deleted = app
        .request(Method::DELETE, &path, Some(&app.operator.key))
        .send()
        .await
        .expect("delete");
    assert_eq!(deleted.status().as_u16(), 204);
    json_with_status(
        app.post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
}
