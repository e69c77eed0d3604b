//! What an attempt sent is kept beside what it received: the URL and the three signed
//! headers, read back whole; the body is the delivery's event, kept once and read back
//! by its id, for its own operator only.

use opinion_app::model::{AttemptReport, AttemptRequest};
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::{EventId, WebhookEndpointId};
use opinion_webhook::{DeliveryStatus, EventType, SignatureHeaders};

use super::{arranged, attempt, claim, commit_events, endpoint, event};
use crate::fixtures::*;

#[tokio::test]
async fn an_attempts_request_is_kept_and_its_body_is_the_event_kept_once() {
    let (_db, store) = arranged().await;
    commit_events(
        &store,
        &endpoint(1, 12, &[EventType::MarketResolved]),
        vec![event(1, 100, EventType::TradeProcessed)],
    )
    .await;
    let claimed = store.claim_due_deliveries(&claim(200, 7, 10)).await.expect("claim");
    let target = claimed
        .iter()
        .find(|t| t.endpoint_id == WebhookEndpointId::from_u128(10))
        .expect("a delivery to endpoint 10");
    let request = AttemptRequest {
        url: "https://hooks10.example.com/".into(),
        headers: SignatureHeaders {
            webhook_id: EventId::from_u128(100).to_string(),
            webhook_timestamp: "1767225800".into(),
            webhook_signature:
                "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1,YmFzZTY0IG9mIGFub3RoZXIgc2lnbmF0dXJl".into(),
        },
    };
    let sent = AttemptReport {
        operator_id: operator_id(1),
        delivery_id: target.delivery_id,
        endpoint_id: target.endpoint_id,
        lease: Some(7),
        attempt: opinion_app::model::AttemptRecord {
            request: Some(request.clone()),
            ..attempt(Some(500))
        },
        delivery: Some((DeliveryStatus::Pending, Some(at(260)))),
        failing_since: Some(at(200)),
        disable: None,
    };
    store.record_attempt(&sent).await.expect("record");
    let unsent = AttemptReport {
        lease: None,
        delivery: None,
        attempt: attempt(None),
        ..sent.clone()
    };
    store.record_attempt(&unsent).await.expect("record");

    let logged = store
        .find_delivery(operator_id(1), target.delivery_id)
        .await
        .expect("find")
        .expect("exists");
    let requests: Vec<_> = logged.attempts.iter().map(|a| a.request.clone()).collect();
    assert_eq!(
        requests,
        [Some(request), None],
        "kept whole, and none when nothing was sent"
    );

    let carried = store
        .find_event(operator_id(1), logged.event_id)
        .await
        .expect("find")
        .expect("the delivery's event");
    assert_eq!(carried, target.event, "the body's source is the event the attempt sent");
    assert_eq!(
        store.find_event(operator_id(2), logged.event_id).await.expect("find"),
        None,
        "another operator never reads it"
    );
}
