//! The delivery log and replays over HTTP: filters, keyset pages, attempts, replaying
//! (signed afresh, refused for a disabled endpoint, rate limited), dead letters listed and
//! replayed as the same event, tenant isolation.

use opinion_testkit::{Reply, WebhookSink};
use serde_json::{Value, json};

use crate::helpers::{assert_problem, json_with_status, spawn_app};
use crate::webhooks_support::*;

const DELIVERIES: &str = "/api/operator/webhooks/deliveries";

#[tokio::test]
async fn the_log_filters_and_pages_through_deliveries_with_their_attempts() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let first = register(&app, &app.operator, &sink.url("first"), &[DISABLED]).await;
    register(&app, &app.operator, &sink.url("second"), &[DISABLED]).await;
    emit_events(&app, 3).await;
    sink.script([Reply::status(500).with_body("try later".into())]);
    let worker = app.webhooks_with_clock(clock_after_now()).await;
    let round = worker.deliver_due(50).await.expect("deliver");
    assert_eq!(round.attempted, 6);

    let key = &app.operator.key;
    let mut seen = Vec::new();
    let mut path = format!("{DELIVERIES}?limit=4");
    loop {
        let page = json_with_status(app.get(&path, key).await, 200).await;
        seen.extend(page["data"].as_array().expect("data").iter().cloned());
        if page["hasMore"] == false {
            assert!(page["nextCursor"].is_null());
            break;
        }
        path = format!(
            "{DELIVERIES}?limit=4&cursor={}",
            page["nextCursor"].as_str().expect("cursor")
        );
    }
    assert_eq!(seen.len(), 6);
    let ids: Vec<&str> = seen.iter().map(|d| d["id"].as_str().expect("id")).collect();
    let mut sorted = ids.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    sorted.dedup();
    assert_eq!(sorted, ids, "newest first, each once");

    let failed: Vec<&Value> = seen.iter().filter(|d| d["status"] == "pending").collect();
    assert_eq!(failed.len(), 1, "one answer was a 500 and is scheduled again");
    let attempt = &failed[0]["attempts"][0];
    assert_eq!(attempt["number"], 1);
    assert_eq!(attempt["trigger"], "scheduled");
    assert_eq!(attempt["statusCode"], 500);
    assert_eq!(attempt["responseBody"], "try later");
    assert!(attempt["error"].as_str().is_some_and(|e| e.contains("500")));
    assert_eq!(attempt["nextAttemptAt"], failed[0]["nextAttemptAt"]);
    assert!(attempt["durationMs"].is_u64());

    assert_eq!(deliveries(&app, &format!("endpointId={}", first.id)).await.len(), 3);
    assert_eq!(deliveries(&app, "status=delivered").await.len(), 5);
    assert_eq!(deliveries(&app, &format!("eventType={DISABLED}")).await.len(), 6);
    assert_eq!(deliveries(&app, "eventType=mini_app.trade.processed").await.len(), 0);
    assert_eq!(deliveries(&app, "status=dead_letter").await.len(), 0);
    assert_eq!(deliveries(&app, "createdFrom=2999-01-01T00:00:00Z").await.len(), 0);
    assert_eq!(
        deliveries(
            &app,
            "createdFrom=2020-01-01T00:00:00Z&createdBefore=2999-01-01T00:00:00Z"
        )
        .await
        .len(),
        6
    );
    for (query, field) in [
        ("status=sent", "status"),
        ("eventType=trade", "eventType"),
        ("eventType=trade.executed", "eventType"),
        ("endpointId=whd_01jdz3qv6mz8x5c0a2t5d4e7f9", "endpointId"),
        ("createdFrom=yesterday", "createdFrom"),
        (
            "createdFrom=2026-01-02T00:00:00Z&createdBefore=2026-01-01T00:00:00Z",
            "createdBefore",
        ),
    ] {
        let problem = assert_problem(
            app.get(&format!("{DELIVERIES}?{query}"), key).await,
            400,
            "validation_failed",
        )
        .await;
        assert_eq!(problem["field"], field, "{query}");
    }
    assert_problem(
        app.get(&format!("{DELIVERIES}?colour=red"), key).await,
        400,
        "invalid_query",
    )
    .await;
    assert_problem(
        app.get(&format!("{DELIVERIES}?limit=201"), key).await,
        400,
        "invalid_limit",
    )
    .await;
}

#[tokio::test]
async fn a_replay_sends_the_event_again_now_signed_afresh() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let observer = register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    emit_events(&app, 1).await;
    let clock = clock_after_now();
    clock.advance(time::Duration::minutes(2));
    app.webhooks_with_clock(clock)
        .await
        .deliver_due(10)
        .await
        .expect("deliver");
    let delivery = deliveries(&app, "").await.remove(0);
    assert_eq!(delivery["status"], "delivered");

    let path = format!("{DELIVERIES}/{}/replay", delivery["id"].as_str().expect("id"));
    let replayed = json_with_status(app.post_empty(&path, &app.operator.key).await, 200).await;
    assert_eq!(replayed["status"], "delivered");
    let attempts = replayed["attempts"].as_array().expect("attempts");
    assert_eq!(attempts.len(), 2);
    assert_eq!(attempts[1]["number"], 2);
    assert_eq!(attempts[1]["trigger"], "manual");
    assert_eq!(attempts[1]["statusCode"], 204);

    let received = sink.received();
    assert_eq!(received.len(), 2);
    assert_eq!(received[0].header("webhook-id"), received[1].header("webhook-id"));
    assert_eq!(received[0].body, received[1].body, "the same event, byte for byte");
    assert_ne!(
        received[0].header("webhook-timestamp"),
        received[1].header("webhook-timestamp"),
        "each attempt is signed at its own time"
    );
    assert!(verifies_now(&observer.secret, &received[1]));
}

#[tokio::test]
async fn a_replay_is_refused_to_a_disabled_endpoint_and_for_another_operator() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let observer = register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    emit_events(&app, 1).await;
    let delivery = deliveries(&app, "").await.remove(0);
    let path = format!("{DELIVERIES}/{}/replay", delivery["id"].as_str().expect("id"));

    let other = app.new_operator("Other operator").await;
    assert_problem(app.post_empty(&path, &other.key).await, 404, "not_found").await;
    let theirs = json_with_status(app.get(DELIVERIES, &other.key).await, 200).await;
    assert_eq!(theirs["data"], json!([]));

    let endpoint = format!("/api/operator/webhooks/endpoints/{}", observer.id);
    json_with_status(
        app.patch(&endpoint, &app.operator.key, &json!({"enabled": false}))
            .await,
        200,
    )
    .await;
    assert_problem(
        app.post_empty(&path, &app.operator.key).await,
        409,
        "webhook_endpoint_disabled",
    )
    .await;
    assert!(sink.received().is_empty(), "a disabled endpoint gets nothing");
    assert_problem(
        app.post_empty(
            &format!("{DELIVERIES}/whe_01jdz3qv6mz8x5c0a2t5d4e7f9/replay"),
            &app.operator.key,
        )
        .await,
        400,
        "invalid_id",
    )
    .await;
}

#[tokio::test]
async fn replays_respect_the_endpoints_rate_limit() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let body = json!({"url": sink.url("limited"), "eventTypes": [DISABLED], "rateLimitPerMinute": 1});
    json_with_status(
        app.post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    emit_events(&app, 1).await;
    let delivery = deliveries(&app, "").await.remove(0);
    let path = format!("{DELIVERIES}/{}/replay", delivery["id"].as_str().expect("id"));

    json_with_status(app.post_empty(&path, &app.operator.key).await, 200).await;
    let limited = app.post_empty(&path, &app.operator.key).await;
    let retry_after: u64 = limited
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After header");
    assert!((1..=61).contains(&retry_after), "{retry_after}");
    let problem = assert_problem(limited, 429, "rate_limited").await;
    assert_eq!(problem["retryAfterSeconds"], retry_after);
    assert_eq!(sink.received().len(), 1);
}

#[tokio::test]
async fn a_dead_letter_is_listed_left_alone_and_replayed_as_the_same_event() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    sink.answer_by_default(Reply::status(503));
    let body = json!({"url": sink.url("flaky"), "eventTypes": [DISABLED], "maxAttempts": 2});
    let endpoint = json_with_status(
        app.post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    let secret = endpoint["secret"].as_str().expect("secret").to_owned();
    emit_events(&app, 1).await;
    let clock = clock_after_now();
    let worker = app.webhooks_with_clock(clock.clone()).await;
    assert_eq!(worker.deliver_due(10).await.expect("deliver").attempted, 1);
    let pending = deliveries(&app, "").await.remove(0);
    assert_eq!(pending["status"], "pending");
    clock.set(time_of(&pending["nextAttemptAt"]));
    assert_eq!(worker.deliver_due(10).await.expect("deliver").attempted, 1);

    let dead = deliveries(&app, "status=dead_letter").await;
    assert_eq!(dead.len(), 1, "its two attempts ran out");
    assert_eq!(dead[0]["id"], pending["id"]);
    assert!(dead[0]["nextAttemptAt"].is_null());
    assert_eq!(dead[0]["attempts"].as_array().map(Vec::len), Some(2));
    assert_eq!(deliveries(&app, "status=pending").await.len(), 0);
    clock.advance(time::Duration::days(30));
    assert_eq!(
        worker.deliver_due(10).await.expect("deliver").attempted,
        0,
        "a dead letter is never retried on its own"
    );

    let path = format!("{DELIVERIES}/{}/replay", dead[0]["id"].as_str().expect("id"));
    let failed = json_with_status(app.post_empty(&path, &app.operator.key).await, 200).await;
    assert_eq!(
        failed["status"], "dead_letter",
        "a failed replay leaves it a dead letter"
    );
    sink.answer_by_default(Reply::status(204));
    let replayed = json_with_status(app.post_empty(&path, &app.operator.key).await, 200).await;
    assert_eq!(replayed["status"], "delivered");
    assert_eq!(replayed["eventId"], pending["eventId"], "the same event, not a new one");
    let attempts = replayed["attempts"].as_array().expect("attempts");
    assert_eq!(
        attempts
            .iter()
            .map(|a| a["trigger"].as_str().unwrap_or_default())
            .collect::<Vec<_>>(),
        ["scheduled", "scheduled", "manual", "manual"]
    );
    let received = sink.received();
    assert_eq!(received.len(), 4);
    assert!(
        received
            .iter()
            .all(|r| r.header("webhook-id") == received[0].header("webhook-id"))
    );
    assert!(
        received.iter().all(|r| r.body == received[0].body),
        "byte for byte the same event"
    );
    assert!(verifies_now(&secret, &received[3]));
    assert_eq!(
        deliveries(&app, "").await.len(),
        1,
        "a replay makes no new delivery or event"
    );
}
