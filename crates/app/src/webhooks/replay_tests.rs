//! Replays and the delivery log's filters.

use std::time::Duration as StdDuration;

use opinion_access::Grant;
use opinion_core::WebhookDeliveryId;
use opinion_webhook::{AttemptResult, AttemptTrigger, DeliveryStatus, RateLimit};
use time::Duration;

use super::test_fixtures::*;
use crate::error::{AppError, ProblemCode};
use crate::model::DeliveryFilter;
use crate::test_support::api_key_caller;
use crate::webhooks::store::ReplayTarget;
use crate::webhooks::transport::TransportResponse;

fn replayable(active: bool, rate_limit: Option<RateLimit>) -> ReplayTarget {
    ReplayTarget {
        target: target(12),
        endpoint_active: active,
        rate_limit,
    }
}

#[tokio::test]
async fn a_replay_is_a_manual_attempt_without_a_claim() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_replay_target()
        .returning(|_, _| Ok(Some(replayable(true, None))));
    mocks.transport.expect_send().times(1).returning(|_| TransportResponse {
        result: AttemptResult::Status(200),
        retry_after_secs: None,
        body: None,
        error: None,
        elapsed: StdDuration::from_millis(5),
    });
    mocks.store.expect_record_attempt().times(1).returning(|r| {
        assert!(r.lease.is_none());
        assert_eq!(r.attempt.trigger, AttemptTrigger::Manual);
        Ok(())
    });
    mocks.store.expect_find_delivery().returning(|_, _| Ok(None));
    let result = mocks
        .build(true)
        .replay_delivery(&api_key_caller(Grant::All), WebhookDeliveryId::from_u128(7))
        .await;
    assert!(
        matches!(result, Err(AppError::NotFound("webhook delivery"))),
        "{result:?}"
    );
}

/// A replay of a dead letter (every scheduled attempt made) answered with `status`;
/// returns the request sent and the report recorded.
async fn replay_dead_letter(status: u16) -> (crate::webhooks::transport::OutboundRequest, crate::model::AttemptReport) {
    let mut mocks = WebhookMocks::default();
    mocks.store.expect_find_replay_target().returning(|_, _| {
        let mut dead = replayable(true, None);
        dead.target.scheduled_attempts = dead.target.max_attempts.get();
        dead.target.timeout = AttemptTimeout::from_secs(4).expect("timeout");
        Ok(Some(dead))
    });
    let sent = std::sync::Arc::new(std::sync::Mutex::new(None));
    let sent_in = sent.clone();
    mocks.transport.expect_send().times(1).returning(move |request| {
        *sent_in.lock().expect("lock") = Some(request.clone());
        TransportResponse {
            result: AttemptResult::Status(status),
            retry_after_secs: None,
            body: None,
            error: None,
            elapsed: StdDuration::from_millis(5),
        }
    });
    let recorded = std::sync::Arc::new(std::sync::Mutex::new(None));
    let recorded_in = recorded.clone();
    mocks.store.expect_record_attempt().times(1).returning(move |report| {
        *recorded_in.lock().expect("lock") = Some(report.clone());
        Ok(())
    });
    mocks.store.expect_find_delivery().returning(|_, _| Ok(None));
    let _ = mocks
        .build(true)
        .replay_delivery(&api_key_caller(Grant::All), WebhookDeliveryId::from_u128(7))
        .await;
    let request = sent.lock().expect("lock").clone().expect("sent");
    let report = recorded.lock().expect("lock").clone().expect("recorded");
    (request, report)
}

#[tokio::test]
async fn a_dead_letter_is_replayed_as_the_same_event_and_only_a_success_changes_it() {
    let (request, delivered) = replay_dead_letter(200).await;
    assert_eq!(request.headers.webhook_id, target(0).event.id.to_string());
    assert_eq!(request.timeout, StdDuration::from_secs(4));
    assert_eq!(delivered.attempt.trigger, AttemptTrigger::Manual);
    assert_eq!(delivered.delivery, Some((DeliveryStatus::Delivered, None)));
    let (_, failed) = replay_dead_letter(500).await;
    assert_eq!(failed.delivery, None, "a failed replay leaves the dead letter as it is");
    assert_eq!(failed.attempt.next_attempt_at, None);
}

#[tokio::test]
async fn a_disabled_endpoint_is_not_replayed_to() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_replay_target()
        .returning(|_, _| Ok(Some(replayable(false, None))));
    mocks.transport.expect_send().never();
    mocks.store.expect_record_attempt().never();
    let error = mocks
        .build(true)
        .replay_delivery(&api_key_caller(Grant::All), WebhookDeliveryId::from_u128(7))
        .await
        .expect_err("refused");
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::WebhookEndpointDisabled,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_replay_waits_for_the_endpoints_rate_limit() {
    let mut mocks = WebhookMocks::default();
    let limit = RateLimit::per_minute(2).ok();
    mocks
        .store
        .expect_find_replay_target()
        .returning(move |_, _| Ok(Some(replayable(true, limit))));
    mocks.store.expect_reserve_send_slot().returning(|_, _, now, spacing| {
        assert_eq!(now, NOW);
        assert_eq!(spacing, 30_000_000);
        Ok(Some(NOW + Duration::milliseconds(29_500)))
    });
    mocks.transport.expect_send().never();
    let error = mocks
        .build(true)
        .replay_delivery(&api_key_caller(Grant::All), WebhookDeliveryId::from_u128(7))
        .await
        .expect_err("limited");
    assert!(
        matches!(error, AppError::RateLimited { retry_after_secs: 30 }),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_time_range_must_not_be_empty() {
    let mut mocks = WebhookMocks::default();
    mocks.store.expect_list_deliveries().never();
    let filter = DeliveryFilter {
        created_from: Some(NOW),
        created_before: Some(NOW),
        ..DeliveryFilter::default()
    };
    let error = mocks
        .build(true)
        .list_deliveries(&api_key_caller(Grant::All), filter, Default::default())
        .await
        .expect_err("refused");
    assert!(matches!(
        error,
        AppError::Invalid {
            field: "createdBefore",
            ..
        }
    ));
}
