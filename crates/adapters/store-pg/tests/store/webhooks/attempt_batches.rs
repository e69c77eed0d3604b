//! Attempts recorded together (the delivery workers' store): each is recorded as it would
//! be alone, several share one transaction, a missing delivery is refused without
//! failing the others, and a batch whose statement fails writes nothing of any attempt.

use diesel::sql_types::BigInt;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use futures_util::future::join_all;
use opinion_app::model::{AttemptReport, AttemptTarget};
use opinion_app::webhooks::store::{Claim, WebhookStore};
use opinion_core::WebhookDeliveryId;
use opinion_store_pg::PgStore;
use opinion_webhook::{DeliveryStatus, EventType, MAX_IN_FLIGHT_PER_ENDPOINT};

use super::attempt_records::{delivery, report};
use super::{arranged, commit_events, endpoint, event};
use crate::fixtures::*;

/// The claim token of every delivery these tests take.
const TOKEN: u128 = 7;

/// `events` events committed for endpoints 10 and 11, and their deliveries claimed at
/// 200 (at most the per-endpoint cap of each).
async fn claimed(store: &PgStore, events: u128) -> Vec<AttemptTarget> {
    let committed = (0..events)
        .map(|n| event(1, 100 + n, EventType::TradeProcessed))
        .collect();
    commit_events(store, &endpoint(1, 12, &[EventType::MarketResolved]), committed).await;
    let claim = Claim {
        now: at(200),
        lease_until: at(320),
        token: TOKEN,
        limit: 100,
    };
    store.claim_due_deliveries(&claim).await.expect("claim")
}

/// A delivered scheduled attempt at `target`, under the claim.
fn delivered(target: &AttemptTarget) -> AttemptReport {
    report(target, Some(TOKEN), Some((DeliveryStatus::Delivered, None)))
}

/// Records every report at once through `store`; their answers, in order.
async fn record_at_once(store: &PgStore, reports: &[AttemptReport]) -> Vec<bool> {
    join_all(reports.iter().map(|report| store.record_attempt(report)))
        .await
        .into_iter()
        .map(|answer| answer.is_ok())
        .collect()
}

/// The number of transactions that wrote the logged attempts, and the most attempts one
/// of them wrote (rows written by one transaction share its `xmin`).
async fn attempt_transactions(url: &str) -> (i64, i64) {
    #[derive(QueryableByName)]
    struct Transactions {
        #[diesel(sql_type = BigInt)]
        transactions: i64,
        #[diesel(sql_type = BigInt)]
        largest: i64,
    }
    let mut conn = AsyncPgConnection::establish(url).await.expect("connect");
    let found: Transactions = sql_query(
        "SELECT count(*) AS transactions, coalesce(max(attempts), 0) AS largest
         FROM (SELECT count(*) AS attempts FROM webhook_attempts GROUP BY xmin::text) batches",
    )
    .get_result(&mut conn)
    .await
    .expect("count");
    (found.transactions, found.largest)
}

#[tokio::test]
async fn attempts_finished_together_are_recorded_as_alone_in_fewer_transactions() {
    let (db, store) = arranged().await;
    let batched = store.clone().with_attempt_batches();
    let targets = claimed(&store, 20).await;
    let expected = 2 * usize::try_from(MAX_IN_FLIGHT_PER_ENDPOINT).expect("small");
    assert_eq!(targets.len(), expected, "both endpoints at their cap");

    let reports: Vec<AttemptReport> = targets.iter().map(delivered).collect();
    assert!(record_at_once(&batched, &reports).await.into_iter().all(|ok| ok));

    for target in &targets {
        assert_eq!(
            delivery(&store, target.delivery_id).await,
            (DeliveryStatus::Delivered, None, vec![1]),
            "each attempt recorded as alone"
        );
    }
    let (transactions, largest) = attempt_transactions(db.url()).await;
    assert!(
        transactions < i64::try_from(expected).expect("small"),
        "{expected} attempts in {transactions} transactions"
    );
    assert!(largest <= 24, "a transaction records at most a batch: {largest}");
}

#[tokio::test]
async fn a_missing_delivery_is_refused_alone_and_its_batch_is_recorded() {
    let (_db, store) = arranged().await;
    let batched = store.clone().with_attempt_batches();
    let targets = claimed(&store, 1).await;
    let missing = AttemptReport {
        delivery_id: WebhookDeliveryId::from_u128(404),
        ..delivered(&targets[0])
    };
    let reports = [delivered(&targets[0]), missing, delivered(&targets[1])];

    assert_eq!(record_at_once(&batched, &reports).await, vec![true, false, true]);
    for target in &targets {
        assert_eq!(
            delivery(&store, target.delivery_id).await,
            (DeliveryStatus::Delivered, None, vec![1])
        );
    }
}

#[tokio::test]
async fn a_batch_whose_statement_fails_writes_nothing_of_any_attempt() {
    let (db, store) = arranged().await;
    let batched = store.clone().with_attempt_batches();
    let targets = claimed(&store, 2).await;
    assert_eq!(targets.len(), 4);
    // Attempt 1 of the first delivery is already logged (by hand, its count untouched),
    // so the batch's log row for it collides with the key.
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(&format!(
        "INSERT INTO webhook_attempts (operator_id, delivery_id, number, trigger, started_at, duration_ms)
         VALUES ('{}', '{}', 1, 'scheduled', now(), 0)",
        uuid::Uuid::from_u128(operator_id(1).as_u128()),
        uuid::Uuid::from_u128(targets[0].delivery_id.as_u128()),
    ))
    .await
    .expect("collide");

    let reports: Vec<AttemptReport> = targets.iter().map(delivered).collect();
    assert_eq!(record_at_once(&batched, &reports).await, vec![false; 4]);
    for (n, target) in targets.iter().enumerate() {
        let (status, _, logged) = delivery(&store, target.delivery_id).await;
        assert_eq!(status, DeliveryStatus::Pending, "nothing of the batch written");
        let by_hand = if n == 0 { vec![1] } else { vec![] };
        assert_eq!(logged, by_hand, "nothing of the batch written");
    }
    let (_, largest) = attempt_transactions(db.url()).await;
    assert_eq!(largest, 1, "only the row logged by hand");
}
