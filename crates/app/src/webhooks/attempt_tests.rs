//! The delivery workers' step: claiming, signing, sending, planning, recording.

use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;

use opinion_webhook::{
    AttemptResult, AttemptTrigger, CLAIM_LEASE_SECS, DISABLE_AFTER_FAILING_SECS, DeliveryStatus, DisableReason,
    Envelope, MAX_PAYLOAD_BYTES, next_attempt_delay, verify,
};
use serde_json::json;
use time::Duration;

use super::test_fixtures::*;
use crate::model::{AttemptReport, AttemptRequest};
use crate::webhooks::attempt::envelope_body;
use crate::webhooks::transport::{OutboundRequest, TransportResponse};

const JITTER: u32 = u32::from_le_bytes([42; 4]);

fn answer(result: AttemptResult) -> TransportResponse {
    TransportResponse {
        result,
        retry_after_secs: None,
        body: Some("ok".into()),
        error: None,
        elapsed: StdDuration::from_millis(120),
    }
}

/// Runs one worker step over `target` answered with `response`; returns the claim's
/// token, the request sent (if any) and the report recorded.
async fn step(target: AttemptTarget, response: TransportResponse) -> (u128, Option<OutboundRequest>, AttemptReport) {
    let mut mocks = WebhookMocks::default();
    let claimed = Arc::new(Mutex::new(None));
    let claimed_in = claimed.clone();
    mocks
        .store
        .expect_claim_due_deliveries()
        .times(1)
        .returning(move |claim| {
            assert_eq!(claim.now, NOW);
            assert_eq!(claim.lease_until, NOW + Duration::seconds(CLAIM_LEASE_SECS));
            *claimed_in.lock().expect("lock") = Some(claim.token);
            Ok(vec![target.clone()])
        });
    let sent = Arc::new(Mutex::new(None));
    let sent_in = sent.clone();
    mocks.transport.expect_send().returning(move |request| {
        *sent_in.lock().expect("lock") = Some(request.clone());
        response.clone()
    });
    let recorded = Arc::new(Mutex::new(None));
    let recorded_in = recorded.clone();
    mocks.store.expect_record_attempt().times(1).returning(move |report| {
        *recorded_in.lock().expect("lock") = Some(report.clone());
        Ok(())
    });
    let round = mocks.build(true).deliver_due(10).await.expect("round");
    assert_eq!(round.attempted, 1);
    let token = claimed.lock().expect("lock").expect("claimed");
    let request = sent.lock().expect("lock").clone();
    let report = recorded.lock().expect("lock").clone().expect("recorded");
    (token, request, report)
}

#[tokio::test]
async fn a_delivery_is_signed_with_every_active_secret_over_its_envelope() {
    let mut rotated = target(0);
    rotated.secrets = EndpointSecrets::new(secret(1)).rotated(secret(2), NOW + Duration::hours(1));
    let (token, request, report) = step(rotated.clone(), answer(AttemptResult::Status(204))).await;
    let request = request.expect("sent");
    assert_eq!(request.headers.webhook_id, rotated.event.id.to_string());
    assert_eq!(request.headers.webhook_timestamp, NOW.unix_timestamp().to_string());
    for held in [secret(1), secret(2)] {
        let verified = verify(
            &held,
            &request.headers.webhook_id,
            &request.headers.webhook_timestamp,
            &request.headers.webhook_signature,
            &request.body,
            NOW.unix_timestamp(),
            300,
        );
        assert_eq!(verified, Ok(()));
    }
    let envelope: Envelope = serde_json::from_slice(&request.body).expect("an envelope");
    assert_eq!(envelope.id, rotated.event.id);
    assert_eq!(envelope.operator_id, OPERATOR);
    assert_eq!(envelope.data["tradeId"], json!("trd_1"));
    assert_eq!(report.lease, Some(token));
    assert_eq!(report.delivery, Some((DeliveryStatus::Delivered, None)));
    assert_eq!(report.failing_since, None);
    assert_eq!(report.attempt.trigger, AttemptTrigger::Scheduled);
    assert_eq!(report.attempt.status_code, Some(204));
    assert_eq!(report.attempt.duration_ms, 120);
    assert_eq!(request.timeout, StdDuration::from_secs(15));
    assert_eq!(
        report.attempt.request,
        Some(AttemptRequest {
            url: rotated.url.clone(),
            headers: request.headers.clone(),
        }),
        "what was sent is recorded with the answer"
    );
    assert_eq!(
        envelope_body(&rotated.event, OPERATOR).expect("body"),
        request.body,
        "the body is rebuilt from the event, byte for byte"
    );
}

#[tokio::test]
async fn an_attempt_is_sent_with_its_endpoints_own_time_limit() {
    let mut quick = target(0);
    quick.timeout = AttemptTimeout::from_secs(3).expect("timeout");
    let (_, request, _) = step(quick, answer(AttemptResult::Status(204))).await;
    assert_eq!(request.map(|r| r.timeout), Some(StdDuration::from_secs(3)));
}

#[tokio::test]
async fn a_failure_schedules_the_next_attempt_and_starts_the_streak() {
    let (_, _, report) = step(target(0), answer(AttemptResult::Status(503))).await;
    let due = NOW + Duration::seconds(next_attempt_delay(1, MaxAttempts::default(), JITTER).expect("a delay") as i64);
    assert_eq!(report.delivery, Some((DeliveryStatus::Pending, Some(due))));
    assert_eq!(report.attempt.next_attempt_at, Some(due));
    assert_eq!(report.failing_since, Some(NOW));
    assert!(report.attempt.error.as_deref().is_some_and(|e| e.contains("503")));
    assert!(report.disable.is_none());
}

#[tokio::test]
async fn retry_after_is_honoured() {
    let mut asked = answer(AttemptResult::Status(429));
    asked.retry_after_secs = Some(3_600);
    let (_, _, report) = step(target(2), asked).await;
    assert_eq!(
        report.delivery,
        Some((DeliveryStatus::Pending, Some(NOW + Duration::hours(1))))
    );
}

#[tokio::test]
async fn the_last_scheduled_attempt_makes_a_dead_letter() {
    let last = MaxAttempts::default().get() - 1;
    let (_, _, report) = step(target(last), answer(AttemptResult::Timeout)).await;
    assert_eq!(report.delivery, Some((DeliveryStatus::DeadLetter, None)));
    assert_eq!(report.attempt.next_attempt_at, None);
    assert!(report.disable.is_none());
}

#[tokio::test]
async fn the_endpoints_own_number_of_attempts_decides_when_a_delivery_is_a_dead_letter() {
    let mut short = target(1);
    short.max_attempts = MaxAttempts::new(3).expect("attempts");
    let (_, _, second) = step(short.clone(), answer(AttemptResult::Status(500))).await;
    assert!(matches!(second.delivery, Some((DeliveryStatus::Pending, Some(_)))));
    short.scheduled_attempts = 2;
    let (_, _, third) = step(short, answer(AttemptResult::Status(500))).await;
    assert_eq!(third.delivery, Some((DeliveryStatus::DeadLetter, None)));
}

#[tokio::test]
async fn gone_disables_the_endpoint_with_an_event() {
    let (_, _, report) = step(target(0), answer(AttemptResult::Status(410))).await;
    assert_eq!(report.delivery, Some((DeliveryStatus::Failed, None)));
    let disabling = report.disable.expect("disabled");
    assert_eq!(disabling.reason, DisableReason::Gone);
    assert_eq!(disabling.event.event_type, EventType::WebhookEndpointDisabled);
    assert_eq!(disabling.event.data["reason"], "gone");
    assert_eq!(disabling.event.operator_id, OPERATOR);
}

#[tokio::test]
async fn days_of_failure_disable_the_endpoint() {
    let mut failing = target(3);
    let since = NOW - Duration::seconds(DISABLE_AFTER_FAILING_SECS);
    failing.failing_since = Some(since);
    let (_, _, report) = step(failing, answer(AttemptResult::ConnectionError)).await;
    assert_eq!(report.delivery, Some((DeliveryStatus::Failed, None)));
    let disabling = report.disable.expect("disabled");
    assert_eq!(disabling.reason, DisableReason::Failing);
    assert_eq!(disabling.event.data["failingSince"], "2026-11-17T12:00:00Z");
}

#[tokio::test]
async fn an_oversized_payload_is_never_sent() {
    let mut huge = target(0);
    huge.event
        .data
        .insert("blob".into(), json!("x".repeat(MAX_PAYLOAD_BYTES)));
    let (_, request, report) = step(huge, answer(AttemptResult::Status(200))).await;
    assert_eq!(request, None);
    assert_eq!(report.attempt.request, None, "nothing sent, no request recorded");
    assert_eq!(report.delivery, Some((DeliveryStatus::Failed, None)));
    assert!(
        report
            .attempt
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("payload_too_large"))
    );
}
