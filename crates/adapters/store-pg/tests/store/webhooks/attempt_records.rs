//! What recording an attempt changes: the attempt is always counted and logged; it moves
//! its delivery only as its trigger allows (a scheduled attempt under its own claim, a
//! replay while the delivery is pending, a delivered replay whatever the state); only a
//! scheduled attempt counts towards the scheduled attempts; the endpoint's failure streak
//! follows the report.

use opinion_app::model::{AttemptReport, AttemptTarget};
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::{WebhookDeliveryId, WebhookEndpointId};
use opinion_store_pg::PgStore;
use opinion_webhook::{AttemptTrigger, DeliveryStatus};

use super::{arranged, attempt, claimed_for_ten, one_delivery_claimed_for_ten};
use crate::fixtures::*;

/// A report of an attempt at `target` that proposes `delivery`.
pub(super) fn report(
    target: &AttemptTarget,
    lease: Option<u128>,
    delivery: Option<(DeliveryStatus, Option<time::OffsetDateTime>)>,
) -> AttemptReport {
    AttemptReport {
        operator_id: target.operator_id,
        delivery_id: target.delivery_id,
        endpoint_id: target.endpoint_id,
        lease,
        attempt: opinion_app::model::AttemptRecord {
            trigger: if lease.is_some() {
                AttemptTrigger::Scheduled
            } else {
                AttemptTrigger::Manual
            },
            ..attempt(Some(500))
        },
        delivery,
        failing_since: None,
        disable: None,
    }
}

/// The delivery's status, next attempt and logged attempt numbers.
pub(super) async fn delivery(
    store: &PgStore,
    id: WebhookDeliveryId,
) -> (DeliveryStatus, Option<time::OffsetDateTime>, Vec<u32>) {
    let found = store
        .find_delivery(operator_id(1), id)
        .await
        .expect("find")
        .expect("exists");
    (
        found.status,
        found.next_attempt_at,
        found.attempts.iter().map(|a| a.number).collect(),
    )
}

/// Since when endpoint 10 has been failing, if it is.
async fn streak_of_ten(store: &PgStore) -> Option<time::OffsetDateTime> {
    let ten = store
        .find_endpoint(operator_id(1), WebhookEndpointId::from_u128(10))
        .await
        .expect("find")
        .expect("exists");
    ten.failing_since
}

#[tokio::test]
async fn an_attempt_is_always_counted_and_moves_its_delivery_only_as_its_trigger_allows() {
    let (_db, store) = arranged().await;
    let first = one_delivery_claimed_for_ten(&store).await;
    assert_eq!(first.scheduled_attempts, 0);

    let retried = AttemptReport {
        failing_since: Some(at(200)),
        ..report(&first, Some(7), Some((DeliveryStatus::Pending, Some(at(300)))))
    };
    store.record_attempt(&retried).await.expect("record");
    assert_eq!(
        delivery(&store, first.delivery_id).await,
        (DeliveryStatus::Pending, Some(at(300)), vec![1])
    );
    assert!(
        claimed_for_ten(&store, 299, 8).await.is_none(),
        "not due before its retry"
    );
    let second = claimed_for_ten(&store, 300, 8)
        .await
        .expect("due at its retry, its claim released");
    assert_eq!(second.scheduled_attempts, 1, "the scheduled attempt counted");
    assert_eq!(second.failing_since, Some(at(200)), "the endpoint's streak began");

    let replayed_pending = report(&second, None, Some((DeliveryStatus::DeadLetter, None)));
    store.record_attempt(&replayed_pending).await.expect("record");
    assert_eq!(
        delivery(&store, first.delivery_id).await,
        (DeliveryStatus::DeadLetter, None, vec![1, 2]),
        "a replay moves a pending delivery"
    );

    let late = report(&second, Some(8), Some((DeliveryStatus::Delivered, None)));
    store.record_attempt(&late).await.expect("record");
    assert_eq!(
        delivery(&store, first.delivery_id).await,
        (DeliveryStatus::DeadLetter, None, vec![1, 2, 3]),
        "a scheduled attempt whose delivery is no longer pending is only logged"
    );

    let failed_replay = report(&second, None, Some((DeliveryStatus::Failed, None)));
    store.record_attempt(&failed_replay).await.expect("record");
    let unproposed = report(&second, None, None);
    store.record_attempt(&unproposed).await.expect("record");
    assert_eq!(
        delivery(&store, first.delivery_id).await,
        (DeliveryStatus::DeadLetter, None, vec![1, 2, 3, 4, 5]),
        "a failed replay leaves a settled delivery alone"
    );

    let delivered_replay = report(&second, None, Some((DeliveryStatus::Delivered, None)));
    store.record_attempt(&delivered_replay).await.expect("record");
    assert_eq!(
        delivery(&store, first.delivery_id).await,
        (DeliveryStatus::Delivered, None, vec![1, 2, 3, 4, 5, 6]),
        "a delivered replay settles it whatever its state"
    );
    assert_eq!(streak_of_ten(&store).await, None, "a report without a streak ends it");
}

#[tokio::test]
async fn an_attempt_at_a_delivery_that_does_not_exist_is_refused_and_logs_nothing() {
    let (_db, store) = arranged().await;
    let target = one_delivery_claimed_for_ten(&store).await;
    let elsewhere = AttemptReport {
        delivery_id: WebhookDeliveryId::from_u128(404),
        failing_since: Some(at(200)),
        ..report(&target, Some(7), Some((DeliveryStatus::Delivered, None)))
    };
    assert!(store.record_attempt(&elsewhere).await.is_err());
    assert_eq!(delivery(&store, target.delivery_id).await.2, Vec::<u32>::new());
    assert_eq!(
        streak_of_ten(&store).await,
        None,
        "the refused report's streak is not written"
    );
}
