//! Each endpoint's own number of attempts and time limit, stored, changed and handed to
//! the workers with every claim; dead letters listed by their status, never claimed
//! again, and delivered by a successful replay.

use opinion_app::model::{AttemptReport, DeliveryFilter, EndpointUpdate};
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::{PageRequest, WebhookEndpointId};
use opinion_webhook::{AttemptTimeout, AttemptTrigger, DeliveryStatus, EventType, MaxAttempts};

use super::{arranged, attempt, claim, commit_events, endpoint, event, one_delivery_claimed_for_ten};
use crate::fixtures::*;

#[tokio::test]
async fn an_endpoints_settings_are_stored_changed_and_claimed_with_its_deliveries() {
    let (_db, store) = arranged().await;
    let mut own = endpoint(1, 13, &[EventType::TradeProcessed]);
    own.max_attempts = MaxAttempts::new(6).expect("attempts");
    own.timeout = AttemptTimeout::from_secs(5).expect("timeout");
    store.insert_endpoint(&own).await.expect("insert");
    let found = store
        .find_endpoint(operator_id(1), own.id)
        .await
        .expect("find")
        .expect("exists");
    assert_eq!((found.max_attempts.get(), found.timeout.secs()), (6, 5));

    let mut changed = found.clone();
    changed.max_attempts = MaxAttempts::new(20).expect("attempts");
    changed.timeout = AttemptTimeout::from_secs(30).expect("timeout");
    changed.updated_at = found.updated_at + time::Duration::seconds(1);
    let update = EndpointUpdate {
        endpoint: changed,
        expected_updated_at: found.updated_at,
        cancel_pending: false,
        reset_health: false,
        events: Vec::new(),
    };
    assert!(store.update_endpoint(&update).await.expect("update"));
    commit_events(
        &store,
        &endpoint(1, 12, &[EventType::MarketResolved]),
        vec![event(1, 100, EventType::TradeProcessed)],
    )
    .await;
    let claimed = store.claim_due_deliveries(&claim(200, 1, 10)).await.expect("claim");
    let to_own = claimed.iter().find(|t| t.endpoint_id == own.id).expect("claimed");
    assert_eq!((to_own.max_attempts.get(), to_own.timeout.secs()), (20, 30));
    let to_default = claimed
        .iter()
        .find(|t| t.endpoint_id == WebhookEndpointId::from_u128(10))
        .expect("claimed");
    assert_eq!(
        (to_default.max_attempts, to_default.timeout),
        (MaxAttempts::default(), AttemptTimeout::default())
    );
}

#[tokio::test]
async fn a_dead_letter_is_listed_never_claimed_again_and_delivered_by_a_replay() {
    let (_db, store) = arranged().await;
    let target = one_delivery_claimed_for_ten(&store).await;
    let exhausted = AttemptReport {
        operator_id: operator_id(1),
        delivery_id: target.delivery_id,
        endpoint_id: target.endpoint_id,
        lease: Some(7),
        attempt: attempt(Some(500)),
        delivery: Some((DeliveryStatus::DeadLetter, None)),
        failing_since: Some(at(200)),
        disable: None,
    };
    store.record_attempt(&exhausted).await.expect("record");

    let dead = DeliveryFilter {
        status: Some(DeliveryStatus::DeadLetter),
        ..DeliveryFilter::default()
    };
    let listed = store
        .list_deliveries(operator_id(1), &dead, PageRequest::default())
        .await
        .expect("list");
    assert_eq!(
        listed.items.iter().map(|d| d.id).collect::<Vec<_>>(),
        [target.delivery_id]
    );
    assert_eq!(listed.items[0].next_attempt_at, None);
    let later = store.claim_due_deliveries(&claim(100_000, 8, 50)).await.expect("claim");
    assert!(
        later.iter().all(|t| t.delivery_id != target.delivery_id),
        "a dead letter is never retried on its own"
    );

    let replay = store
        .find_replay_target(operator_id(1), target.delivery_id)
        .await
        .expect("find")
        .expect("replayable");
    assert_eq!(replay.target.event.id, target.event.id, "a replay sends the same event");
    let mut failed_replay = exhausted.clone();
    failed_replay.lease = None;
    failed_replay.delivery = None;
    failed_replay.attempt.trigger = AttemptTrigger::Manual;
    store.record_attempt(&failed_replay).await.expect("record");
    let still = store
        .find_delivery(operator_id(1), target.delivery_id)
        .await
        .expect("find");
    assert_eq!(
        still.map(|d| (d.status, d.attempts.len())),
        Some((DeliveryStatus::DeadLetter, 2))
    );
    let delivered_replay = AttemptReport {
        delivery: Some((DeliveryStatus::Delivered, None)),
        attempt: opinion_app::model::AttemptRecord {
            status_code: Some(204),
            ..failed_replay.attempt.clone()
        },
        failing_since: None,
        ..failed_replay
    };
    store.record_attempt(&delivered_replay).await.expect("record");
    let delivered = store
        .find_delivery(operator_id(1), target.delivery_id)
        .await
        .expect("find");
    assert_eq!(
        delivered.map(|d| (d.status, d.attempts.len())),
        Some((DeliveryStatus::Delivered, 3))
    );
}
