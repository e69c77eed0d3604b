//! Delivery by the workers against a real receiver: signatures an independent Standard
//! Webhooks implementation accepts, the retry schedule under a controlled clock, nothing
//! lost across a restart or a crash after commit, two worker pools delivering each
//! attempt once, disabled endpoints getting nothing, 410 disabling an endpoint, a slow
//! endpoint not holding up another (nor a worker's other slots), and each endpoint's own
//! attempts and time limit.

use std::collections::HashSet;
use std::time::Duration as StdDuration;

use opinion::webhook_workers::WebhookWorkers;
use opinion_testkit::{Reply, WebhookSink};
use opinion_webhook::{MAX_IN_FLIGHT_PER_ENDPOINT, MaxAttempts, RETRY_DELAYS_SECS};
use serde_json::{Value, json};
use time::Duration;

use crate::helpers::{json_with_status, spawn_app};
use crate::webhooks_support::*;

/// Generous bound for real-time waits; never reached when things work.
const PATIENCE: StdDuration = StdDuration::from_secs(30);

#[tokio::test]
async fn deliveries_carry_the_envelope_and_a_signature_standard_webhooks_accepts() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let observer = register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    let subjects = emit_events(&app, 1).await;
    app.webhooks_with_clock(clock_after_now())
        .await
        .deliver_due(10)
        .await
        .expect("deliver");

    let received = sink.received();
    assert_eq!(received.len(), 1);
    let request = &received[0];
    assert!(verifies_now(&observer.secret, request));
    assert!(!verifies_now(
        "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        request
    ));
    assert_eq!(request.header("content-type"), Some("application/json"));
    let envelope: Value = serde_json::from_slice(&request.body).expect("JSON");
    assert_eq!(envelope["type"], DISABLED);
    assert_eq!(envelope["operatorId"], app.operator.id.to_string());
    assert_eq!(Some(envelope["id"].as_str().expect("id")), request.header("webhook-id"));
    assert!(envelope["createdAt"].as_str().is_some_and(|t| t.ends_with('Z')));
    assert_eq!(envelope["data"]["webhookEndpointId"], subjects[0]);
    assert_eq!(envelope["data"]["reason"], "operator");
    assert!(envelope["data"]["failingSince"].is_null());
    let keys: HashSet<&str> = envelope
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, HashSet::from(["id", "type", "createdAt", "operatorId", "data"]));
}

#[tokio::test]
async fn retries_follow_the_schedule_and_survive_a_restart() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    sink.answer_by_default(Reply::status(503));
    let observer = register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    emit_events(&app, 1).await;
    let clock = clock_after_now();
    let mut worker = app.webhooks_with_clock(clock.clone()).await;
    let default_attempts = MaxAttempts::default().get();

    for attempt in 1..=default_attempts {
        if attempt == 6 {
            // A restart: a new worker pool on new connections; all it knows is the database.
            worker = app.webhooks_with_clock(clock.clone()).await;
        }
        let round = worker.deliver_due(10).await.expect("deliver");
        assert_eq!(round.attempted, 1, "attempt {attempt}");
        let delivery = deliveries(&app, "").await.remove(0);
        let attempts = delivery["attempts"].as_array().expect("attempts").clone();
        assert_eq!(attempts.len() as u32, attempt);
        let last = &attempts[attempt as usize - 1];
        if attempt == default_attempts {
            assert_eq!(delivery["status"], "dead_letter");
            assert!(delivery["nextAttemptAt"].is_null() && last["nextAttemptAt"].is_null());
            break;
        }
        let base = RETRY_DELAYS_SECS[attempt as usize - 1] as i64;
        let wait = time_of(&last["nextAttemptAt"]) - time_of(&last["startedAt"]);
        assert!(
            wait >= Duration::seconds(base * 4 / 5) && wait <= Duration::seconds(base * 6 / 5),
            "attempt {attempt}: waited {wait} for a base of {base} s"
        );
        clock.set(time_of(&last["nextAttemptAt"]) - Duration::seconds(1));
        let early = worker.deliver_due(10).await.expect("deliver");
        assert_eq!(early.attempted, 0, "nothing is sent before it is due");
        clock.advance(Duration::seconds(1));
    }
    let received = sink.received();
    assert_eq!(received.len() as u32, default_attempts);
    let ids: HashSet<_> = received.iter().map(|r| r.header("webhook-id")).collect();
    assert_eq!(ids.len(), 1, "webhook-id is stable across retries");
    let stamps: HashSet<_> = received.iter().map(|r| r.header("webhook-timestamp")).collect();
    assert_eq!(
        stamps.len() as u32,
        default_attempts,
        "each attempt has its own timestamp"
    );
    assert!(received.iter().all(|r| signed_by(&observer.secret, r)));
    assert_eq!(worker.deliver_due(10).await.expect("deliver").attempted, 0);
}

#[tokio::test]
async fn events_committed_before_a_crash_are_all_delivered_by_a_fresh_instance() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    let subjects = emit_events(&app, 3).await;
    assert!(sink.received().is_empty(), "nothing has delivered anything yet");

    app.instance_with_workers().await;
    let received = sink.wait_for(3, PATIENCE).await;
    let delivered: HashSet<String> = received
        .iter()
        .map(|r| {
            let envelope: Value = serde_json::from_slice(&r.body).expect("JSON");
            envelope["data"]["webhookEndpointId"].as_str().expect("id").to_owned()
        })
        .collect();
    assert_eq!(delivered, subjects.into_iter().collect());
}

#[tokio::test]
async fn two_worker_pools_deliver_each_attempt_once() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    register(&app, &app.operator, &sink.url("observer"), &[DISABLED]).await;
    register(&app, &app.operator, &sink.url("second"), &[DISABLED]).await;
    emit_events(&app, 8).await;
    let clock = clock_after_now();
    let (a, b) = (
        app.webhooks_with_clock(clock.clone()).await,
        app.webhooks_with_clock(clock.clone()).await,
    );
    loop {
        let (x, y) = tokio::join!(a.deliver_due(3), b.deliver_due(3));
        if x.expect("pool a").attempted + y.expect("pool b").attempted == 0 {
            break;
        }
    }
    let received = sink.received();
    assert_eq!(received.len(), 16);
    let distinct: HashSet<(String, Option<&str>)> = received
        .iter()
        .map(|r| (r.path.clone(), r.header("webhook-id")))
        .collect();
    assert_eq!(distinct.len(), 16, "no event reached an endpoint twice");
    let log = deliveries(&app, "").await;
    assert!(
        log.iter()
            .all(|d| d["status"] == "delivered" && d["attempts"].as_array().map(Vec::len) == Some(1))
    );
}

#[tokio::test]
async fn disabled_endpoints_get_nothing() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let enabled = register(&app, &app.operator, &sink.url("enabled"), &[DISABLED]).await;
    let body = json!({"url": sink.url("disabled"), "eventTypes": [DISABLED], "enabled": false});
    let disabled = json_with_status(
        app.post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    assert_eq!(disabled["disabledReason"], "operator");
    emit_events(&app, 1).await;
    assert!(
        deliveries(&app, &format!("endpointId={}", disabled["id"].as_str().expect("id")))
            .await
            .is_empty()
    );

    let path = format!("/api/operator/webhooks/endpoints/{}", enabled.id);
    json_with_status(
        app.patch(&path, &app.operator.key, &json!({"enabled": false})).await,
        200,
    )
    .await;
    let worker = app.webhooks_with_clock(clock_after_now()).await;
    assert_eq!(worker.deliver_due(10).await.expect("deliver").attempted, 0);
    assert!(sink.received().is_empty());
    let log = deliveries(&app, &format!("endpointId={}", enabled.id)).await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0]["status"], "cancelled");
}

#[tokio::test]
async fn gone_disables_the_endpoint_and_announces_it() {
    let app = spawn_app().await;
    let (gone_sink, observer_sink) = (WebhookSink::start().await, WebhookSink::start().await);
    gone_sink.answer_by_default(Reply::status(410));
    let gone = register(&app, &app.operator, &gone_sink.url("gone"), &[DISABLED]).await;
    register(&app, &app.operator, &observer_sink.url("observer"), &[DISABLED]).await;
    emit_events(&app, 1).await;
    let worker = app.webhooks_with_clock(clock_after_now()).await;
    worker.deliver_due(10).await.expect("first round");
    worker.deliver_due(10).await.expect("the announcement");

    assert_eq!(gone_sink.received().len(), 1);
    let announced = observer_sink.received();
    assert_eq!(announced.len(), 2);
    let envelope: Value = serde_json::from_slice(&announced[1].body).expect("JSON");
    assert_eq!(envelope["data"]["webhookEndpointId"], gone.id);
    assert_eq!(envelope["data"]["reason"], "gone");
    let listed = json_with_status(
        app.get("/api/operator/webhooks/endpoints", &app.operator.key).await,
        200,
    )
    .await;
    let endpoint = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|e| e["id"] == gone.id.as_str())
        .cloned()
        .expect("listed");
    assert_eq!(
        (endpoint["enabled"].clone(), endpoint["disabledReason"].clone()),
        (json!(false), json!("gone"))
    );
}

/// One worker, its slots shared by an endpoint that answers nothing for longer than the
/// test and one that answers at once: the slow attempts keep their slots, the others
/// are claimed again as each attempt ends, so every fast delivery is made while the
/// slow ones are still in flight.
#[tokio::test]
async fn a_slow_attempt_holds_only_its_own_slot_of_a_worker() {
    let app = spawn_app().await;
    let (slow, fast) = (WebhookSink::start().await, WebhookSink::start().await);
    slow.answer_by_default(Reply::status(200).after(StdDuration::from_secs(120)));
    let body = json!({"url": slow.url("slow"), "eventTypes": [DISABLED], "timeoutSeconds": 30});
    let slow_endpoint = json_with_status(
        app.post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    let fast_endpoint = register(&app, &app.operator, &fast.url("fast"), &[DISABLED]).await;
    let events = 20;
    emit_events(&app, events).await;

    let webhooks = app.webhooks_with_clock(clock_after_now()).await;
    let workers = WebhookWorkers::start(&webhooks, 1, StdDuration::from_millis(20));
    fast.wait_for(events, PATIENCE).await;
    let slow_log = deliveries(
        &app,
        &format!("endpointId={}", slow_endpoint["id"].as_str().expect("id")),
    )
    .await;
    assert!(
        slow_log.iter().all(|delivery| delivery["attempts"] == json!([])),
        "no slow attempt has ended yet: {slow_log:?}"
    );
    let fast_log = deliveries(&app, &format!("endpointId={}", fast_endpoint.id)).await;
    assert_eq!(fast_log.len(), events);
    assert_eq!(
        slow.received().len(),
        MAX_IN_FLIGHT_PER_ENDPOINT as usize,
        "the slow endpoint has as many attempts in flight as it may"
    );
    // Aborts the slow attempts, as a crash would; their claims expire.
    drop(workers);
}

#[tokio::test]
async fn a_slow_endpoint_does_not_hold_up_another() {
    let app = spawn_app().await;
    let (slow, fast) = (WebhookSink::start().await, WebhookSink::start().await);
    slow.answer_by_default(Reply::status(200).after(StdDuration::from_secs(120)));
    let slow_endpoint = register(&app, &app.operator, &slow.url("slow"), &[DISABLED]).await;
    let fast_endpoint = register(&app, &app.operator, &fast.url("fast"), &[DISABLED]).await;
    emit_events(&app, 1).await;

    app.instance_with_workers().await;
    slow.wait_for(1, PATIENCE).await;
    fast.wait_for(1, PATIENCE).await;
    let started = std::time::Instant::now();
    loop {
        let log = deliveries(&app, &format!("endpointId={}", fast_endpoint.id)).await;
        if log[0]["status"] == "delivered" {
            break;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "the fast endpoint's delivery was never recorded"
        );
        tokio::time::sleep(StdDuration::from_millis(20)).await;
    }
    let slow_log = deliveries(&app, &format!("endpointId={}", slow_endpoint.id)).await;
    assert_eq!(slow_log[0]["status"], "pending");
    assert_eq!(
        slow_log[0]["attempts"],
        json!([]),
        "the slow attempt is still in flight"
    );
}

#[tokio::test]
async fn a_delivery_stops_at_its_endpoints_attempts_each_cut_at_its_time_limit() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    sink.answer_by_default(Reply::status(200).after(StdDuration::from_secs(4)));
    let body = json!({
        "url": sink.url("slow"),
        "eventTypes": [DISABLED],
        "maxAttempts": 3,
        "timeoutSeconds": 1,
    });
    json_with_status(
        app.post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    emit_events(&app, 1).await;
    let clock = clock_after_now();
    let worker = app.webhooks_with_clock(clock.clone()).await;

    for attempt in 1..=3 {
        let started = std::time::Instant::now();
        let round = worker.deliver_due(10).await.expect("deliver");
        assert_eq!(round.attempted, 1, "attempt {attempt}");
        assert!(
            started.elapsed() < StdDuration::from_secs(3),
            "attempt {attempt} waited {:?}: longer than the endpoint's limit",
            started.elapsed()
        );
        let delivery = deliveries(&app, "").await.remove(0);
        let last = delivery["attempts"][attempt - 1].clone();
        assert!(last["error"].as_str().is_some_and(|e| e.contains("timeout")), "{last}");
        let took = last["durationMs"].as_u64().expect("durationMs");
        assert!((900..3_000).contains(&took), "attempt {attempt} took {took} ms");
        if attempt < 3 {
            assert_eq!(delivery["status"], "pending");
            clock.set(time_of(&delivery["nextAttemptAt"]));
        } else {
            assert_eq!(delivery["status"], "dead_letter");
            assert!(delivery["nextAttemptAt"].is_null());
        }
    }
    clock.advance(Duration::days(30));
    assert_eq!(worker.deliver_due(10).await.expect("deliver").attempted, 0);
    assert_eq!(
        sink.received().len(),
        3,
        "three attempts, as the endpoint asked, and no more"
    );
}
