//! What an attempt sent is kept beside what it received: the URL and the three signed
//! headers, read back whole; the body is the delivery's event, kept once and read back
//! by its id, for its own operator only.

use opinion_app::model::{AttemptReport, AttemptRequest};
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::EventId;
use opinion_webhook::{DeliveryStatus, SignatureHeaders};

use super::{arranged, attempt, one_delivery_claimed_for_ten};
use crate::fixtures::*;

#[tokio::test]
async fn an_attempts_request_is_kept_and_its_body_is_the_event_kept_once() {
    let (_db, store) = arranged().await;
    let target = one_delivery_claimed_for_ten(&store).await;
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
