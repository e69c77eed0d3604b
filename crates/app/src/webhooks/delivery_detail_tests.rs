//! One delivery with the body its attempts send, rebuilt from the event kept once.

use opinion_access::Grant;
use opinion_core::WebhookDeliveryId;
use opinion_webhook::{DeliveryStatus, Envelope};
use time::Duration;

use super::test_fixtures::*;
use crate::error::AppError;
use crate::model::DeliveryRecord;
use crate::test_support::api_key_caller;

fn logged() -> DeliveryRecord {
    let event = target(0).event;
    DeliveryRecord {
        id: WebhookDeliveryId::from_u128(7),
        operator_id: OPERATOR,
        endpoint_id: target(0).endpoint_id,
        event_id: event.id,
        event_type: event.event_type,
        status: DeliveryStatus::Delivered,
        next_attempt_at: None,
        created_at: NOW - Duration::minutes(1),
        updated_at: NOW,
        attempts: Vec::new(),
    }
}

#[tokio::test]
async fn a_delivery_comes_with_the_envelope_its_attempts_send() {
    let mut mocks = WebhookMocks::default();
    mocks.store.expect_find_delivery().returning(|_, _| Ok(Some(logged())));
    mocks
        .store
        .expect_find_event()
        .withf(|operator, id| *operator == OPERATOR && *id == target(0).event.id)
        .returning(|_, _| Ok(Some(target(0).event)));
    let detail = mocks
        .build(true)
        .delivery(&api_key_caller(Grant::All), WebhookDeliveryId::from_u128(7))
        .await
        .expect("found");
    assert_eq!(detail.delivery, logged());
    let envelope: Envelope = serde_json::from_str(&detail.body).expect("an envelope");
    assert_eq!(envelope.id, target(0).event.id);
    assert_eq!(envelope.operator_id, OPERATOR);
    assert_eq!(envelope.data, target(0).event.data);
}

#[tokio::test]
async fn an_unknown_delivery_is_not_found() {
    let mut mocks = WebhookMocks::default();
    mocks.store.expect_find_delivery().returning(|_, _| Ok(None));
    mocks.store.expect_find_event().never();
    let result = mocks
        .build(true)
        .delivery(&api_key_caller(Grant::All), WebhookDeliveryId::from_u128(8))
        .await;
    assert!(
        matches!(result, Err(AppError::NotFound("webhook delivery"))),
        "{result:?}"
    );
}
