//! Webhook endpoints, the outbox fan-out, claims, attempts and the delivery log against
//! a real database; attempts recorded together in `attempt_batches.rs`, what each attempt
//! sent in `attempt_requests.rs`, each endpoint's
//! delivery settings and dead letters in `delivery_settings.rs`, the launch metadata player events carry in
//! `launch_metadata.rs`, and the migrations that renamed stored events in
//! `renamed_events.rs`.

mod attempt_batches;
mod attempt_records;
mod attempt_requests;
mod delivery_settings;
mod launch_metadata;
mod renamed_events;

use std::collections::HashSet;

use opinion_access::OperatorCap;
use opinion_app::model::{
    AttemptRecord, AttemptReport, AttemptTarget, DeliveryFilter, EndpointDisabling, EndpointSecrets, EndpointUpdate,
    NewEvent, WebhookEndpoint,
};
use opinion_app::ports::StoreError;
use opinion_app::webhooks::store::{Claim, WebhookStore};
use opinion_core::{EventId, PageLimit, PageRequest, WebhookEndpointId};
use opinion_store_pg::PgStore;
use opinion_webhook::{
    AttemptTimeout, AttemptTrigger, DeliveryStatus, DisableReason, EventType, MAX_IN_FLIGHT_PER_ENDPOINT, MaxAttempts,
    RateLimit, SigningSecret, Subscription,
};
use serde_json::{Map, json};
use time::Duration;

use crate::fixtures::*;

fn endpoint(operator: u128, n: u128, types: &[EventType]) -> WebhookEndpoint {
    WebhookEndpoint {
        id: WebhookEndpointId::from_u128(n),
        operator_id: operator_id(operator),
        url: format!("https://hooks{n}.example.com/"),
        description: Some(format!("endpoint {n}")),
        subscription: Subscription::new(types.iter().copied()).expect("subscription"),
        enabled: true,
        disabled_reason: None,
        rate_limit: None,
        max_attempts: MaxAttempts::default(),
        timeout: AttemptTimeout::default(),
        secrets: EndpointSecrets::new(SigningSecret::from_random_bytes(&[n as u8; 32]).expect("secret")),
        failing_since: None,
        created_at: T0,
        updated_at: T0,
    }
}

fn event(operator: u128, n: u128, event_type: EventType) -> NewEvent {
    let mut data = Map::new();
    data.insert("n".into(), json!(n as u64));
    NewEvent {
        id: EventId::from_u128(n),
        operator_id: operator_id(operator),
        event_type,
        data,
        created_at: at(n as i64),
    }
}

/// Commits `events` through the store's public change path (an endpoint update that
/// carries events), as a business transaction would.
async fn commit_events(store: &PgStore, carrier: &WebhookEndpoint, events: Vec<NewEvent>) {
    let current = store
        .find_endpoint(carrier.operator_id, carrier.id)
        .await
        .expect("find")
        .expect("carrier exists");
    let mut next = current.clone();
    next.updated_at = current.updated_at + Duration::seconds(1);
    let update = EndpointUpdate {
        endpoint: next,
        expected_updated_at: current.updated_at,
        cancel_pending: false,
        reset_health: false,
        events,
    };
    assert!(store.update_endpoint(&update).await.expect("update"));
}

fn claim(now_offset: i64, token: u128, limit: u32) -> Claim {
    Claim {
        now: at(now_offset),
        lease_until: at(now_offset + 120),
        token,
        limit,
    }
}

/// The delivery to endpoint 10 that a claim at `now` with `token` takes, if any.
async fn claimed_for_ten(store: &PgStore, now: i64, token: u128) -> Option<AttemptTarget> {
    let claimed = store.claim_due_deliveries(&claim(now, token, 10)).await.expect("claim");
    claimed
        .into_iter()
        .find(|t| t.endpoint_id == WebhookEndpointId::from_u128(10))
}

/// Event 100 committed, and its delivery to endpoint 10 claimed at once (at 200, with
/// claim token 7).
async fn one_delivery_claimed_for_ten(store: &PgStore) -> AttemptTarget {
    commit_events(
        store,
        &endpoint(1, 12, &[EventType::MarketResolved]),
        vec![event(1, 100, EventType::TradeProcessed)],
    )
    .await;
    claimed_for_ten(store, 200, 7).await.expect("due at once")
}

/// Operator 1 with endpoints 10 (trades), 11 (trades and disabled events) and a carrier
/// endpoint 12 subscribed to nothing that matters.
async fn arranged() -> (opinion_testkit::TestDatabase, PgStore) {
    let (db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    store
        .insert_endpoint(&endpoint(1, 10, &[EventType::TradeProcessed]))
        .await
        .expect("insert");
    store
        .insert_endpoint(&endpoint(
            1,
            11,
            &[EventType::TradeProcessed, EventType::WebhookEndpointDisabled],
        ))
        .await
        .expect("insert");
    store
        .insert_endpoint(&endpoint(1, 12, &[EventType::MarketResolved]))
        .await
        .expect("insert");
    (db, store)
}

#[tokio::test]
async fn events_fan_out_to_subscribed_enabled_endpoints_in_their_transaction() {
    let (_db, store) = arranged().await;
    let carrier = endpoint(1, 12, &[EventType::MarketResolved]);
    commit_events(
        &store,
        &carrier,
        vec![
            event(1, 100, EventType::TradeProcessed),
            event(1, 101, EventType::LoginSucceeded),
        ],
    )
    .await;
    let log = store
        .list_deliveries(operator_id(1), &DeliveryFilter::default(), PageRequest::default())
        .await
        .expect("list");
    let mut pairs: Vec<_> = log.items.iter().map(|d| (d.endpoint_id, d.event_id)).collect();
    pairs.sort();
    let e = |n| WebhookEndpointId::from_u128(n);
    assert_eq!(
        pairs,
        [(e(10), EventId::from_u128(100)), (e(11), EventId::from_u128(100))]
    );
    assert!(
        log.items
            .iter()
            .all(|d| d.status == DeliveryStatus::Pending && d.next_attempt_at == Some(at(100)))
    );

    let stale = EndpointUpdate {
        endpoint: carrier.clone(),
        expected_updated_at: T0,
        cancel_pending: false,
        reset_health: false,
        events: vec![event(1, 102, EventType::TradeProcessed)],
    };
    assert!(!store.update_endpoint(&stale).await.expect("stale update"));
    let after = store
        .list_deliveries(operator_id(1), &DeliveryFilter::default(), PageRequest::default())
        .await
        .expect("list");
    assert_eq!(after.items.len(), 2, "a rolled-back change leaves no event behind");
}

#[tokio::test]
async fn concurrent_claims_never_share_a_delivery_and_expired_leases_are_taken_over() {
    let (_db, store) = arranged().await;
    let events = (100..110).map(|n| event(1, n, EventType::TradeProcessed)).collect();
    commit_events(&store, &endpoint(1, 12, &[EventType::MarketResolved]), events).await;

    let (first, second) = (claim(200, 1, 5), claim(200, 2, 5));
    let (a, b) = tokio::join!(store.claim_due_deliveries(&first), store.claim_due_deliveries(&second));
    let (a, b) = (a.expect("claim a"), b.expect("claim b"));
    let ids_a: HashSet<_> = a.iter().map(|t| t.delivery_id).collect();
    let ids_b: HashSet<_> = b.iter().map(|t| t.delivery_id).collect();
    assert!(ids_a.is_disjoint(&ids_b), "a locked row is skipped, never shared");
    assert!(
        ids_a.len() == 5 || ids_b.len() == 5,
        "one claim at least gets its limit"
    );

    let later = store.claim_due_deliveries(&claim(300, 3, 50)).await.expect("claim");
    assert!(
        later
            .iter()
            .all(|t| !ids_a.contains(&t.delivery_id) && !ids_b.contains(&t.delivery_id)),
        "a leased delivery is not claimed again while its lease runs"
    );
    let taken_over = store.claim_due_deliveries(&claim(421, 4, 50)).await.expect("claim");
    let per_endpoint = (MAX_IN_FLIGHT_PER_ENDPOINT as usize).min(10);
    assert_eq!(
        taken_over.len(),
        2 * per_endpoint,
        "after the leases expire, each endpoint's ten are claimed again, up to its cap"
    );
}

#[tokio::test]
async fn one_claim_leases_and_loads_the_deliveries_of_every_operator_it_takes() {
    let (_db, store) = keyed_store().await;
    let mut expected = HashSet::new();
    for (operator, endpoint_n, first_event) in [(1, 10, 100), (2, 20, 200)] {
        given_operator(&store, operator).await;
        let endpoint = endpoint(operator, endpoint_n, &[EventType::TradeProcessed]);
        store.insert_endpoint(&endpoint).await.expect("insert");
        let events: Vec<NewEvent> = (first_event..first_event + 3)
            .map(|n| event(operator, n, EventType::TradeProcessed))
            .collect();
        expected.extend(events.iter().map(|event| (event.operator_id, endpoint.id, event.id)));
        commit_events(&store, &endpoint, events).await;
    }

    let taken = store.claim_due_deliveries(&claim(300, 1, 10)).await.expect("claim");
    let loaded: HashSet<_> = taken
        .iter()
        .map(|target| (target.operator_id, target.endpoint_id, target.event.id))
        .collect();
    assert_eq!(
        loaded, expected,
        "each delivery loaded with its own operator's endpoint and event"
    );
    let again = store.claim_due_deliveries(&claim(301, 2, 10)).await.expect("claim");
    assert!(again.is_empty(), "both operators' deliveries are leased: {again:?}");
}

#[tokio::test]
async fn a_rate_limited_endpoint_gives_one_slot_per_spacing() {
    let (_db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    let mut limited = endpoint(1, 10, &[EventType::TradeProcessed]);
    limited.rate_limit = RateLimit::per_minute(6).ok();
    store.insert_endpoint(&limited).await.expect("insert");
    let events = (100..103).map(|n| event(1, n, EventType::TradeProcessed)).collect();
    commit_events(&store, &limited, events).await;

    let first = store.claim_due_deliveries(&claim(200, 1, 10)).await.expect("claim");
    assert_eq!(first.len(), 1);
    let early = store.claim_due_deliveries(&claim(209, 2, 10)).await.expect("claim");
    assert!(early.is_empty());
    let replay_slot = store
        .reserve_send_slot(operator_id(1), limited.id, at(205), 10_000_000)
        .await
        .expect("reserve");
    assert_eq!(replay_slot, Some(at(210)));
    let next = store.claim_due_deliveries(&claim(210, 3, 10)).await.expect("claim");
    assert_eq!(next.len(), 1);
    assert_ne!(
        next[0].delivery_id, first[0].delivery_id,
        "the first claim's delivery stays leased: the next slot takes the next one"
    );
}

#[tokio::test]
async fn an_endpoint_at_its_cap_never_keeps_another_endpoints_delivery_from_a_claim() {
    let (_db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    let busy = endpoint(1, 10, &[EventType::TradeProcessed]);
    let quiet = endpoint(1, 20, &[EventType::MarketResolved]);
    store.insert_endpoint(&busy).await.expect("insert");
    store.insert_endpoint(&quiet).await.expect("insert");
    let mut events: Vec<NewEvent> = (100..120).map(|n| event(1, n, EventType::TradeProcessed)).collect();
    events.push(event(1, 150, EventType::MarketResolved));
    commit_events(&store, &quiet, events).await;

    let cap = MAX_IN_FLIGHT_PER_ENDPOINT;
    let first = store.claim_due_deliveries(&claim(200, 1, cap)).await.expect("claim");
    let endpoints: Vec<_> = first.iter().map(|target| target.endpoint_id).collect();
    assert_eq!(endpoints, vec![busy.id; cap as usize], "the oldest, up to the cap");
    let next = store.claim_due_deliveries(&claim(201, 2, 1)).await.expect("claim");
    let endpoints: Vec<_> = next.iter().map(|target| target.endpoint_id).collect();
    assert_eq!(
        endpoints,
        vec![quiet.id],
        "the capped endpoint's older deliveries do not hide the other's"
    );
}

#[tokio::test]
async fn endpoints_stop_at_the_operators_cap_and_a_delete_makes_room() {
    let (_db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    let limit = u128::from(OperatorCap::WebhookEndpoints.limit());
    for n in 1..=limit {
        store
            .insert_endpoint(&endpoint(1, n, &[EventType::TradeProcessed]))
            .await
            .expect("within the cap");
    }
    let one_more = endpoint(1, limit + 1, &[EventType::TradeProcessed]);
    assert!(matches!(
        store.insert_endpoint(&one_more).await,
        Err(StoreError::CapReached(OperatorCap::WebhookEndpoints))
    ));
    assert!(
        store
            .find_endpoint(operator_id(1), one_more.id)
            .await
            .expect("read")
            .is_none()
    );
    assert!(
        store
            .delete_endpoint(operator_id(1), WebhookEndpointId::from_u128(1), at(10))
            .await
            .expect("delete")
    );
    store.insert_endpoint(&one_more).await.expect("room again");
}

fn attempt(status_code: Option<u16>) -> AttemptRecord {
    AttemptRecord {
        number: 0,
        trigger: AttemptTrigger::Scheduled,
        started_at: at(200),
        duration_ms: 12,
        request: None,
        status_code,
        error: None,
        response_body: Some("body".into()),
        next_attempt_at: None,
    }
}

#[tokio::test]
async fn an_attempt_changes_its_delivery_only_under_its_claim_and_410_disables_with_an_event() {
    let (_db, store) = arranged().await;
    commit_events(
        &store,
        &endpoint(1, 12, &[EventType::MarketResolved]),
        vec![
            event(1, 100, EventType::TradeProcessed),
            event(1, 101, EventType::TradeProcessed),
        ],
    )
    .await;
    let claimed = store.claim_due_deliveries(&claim(200, 7, 10)).await.expect("claim");
    let to_ten: Vec<_> = claimed
        .iter()
        .filter(|t| t.endpoint_id == WebhookEndpointId::from_u128(10))
        .collect();
    assert_eq!(to_ten.len(), 2);
    let (first, second) = (to_ten[0], to_ten[1]);

    let stolen = AttemptReport {
        operator_id: operator_id(1),
        delivery_id: first.delivery_id,
        endpoint_id: first.endpoint_id,
        lease: Some(99),
        attempt: attempt(Some(204)),
        delivery: Some((DeliveryStatus::Delivered, None)),
        failing_since: None,
        disable: None,
    };
    store.record_attempt(&stolen).await.expect("record");
    let untouched = store
        .find_delivery(operator_id(1), first.delivery_id)
        .await
        .expect("find")
        .expect("exists");
    assert_eq!(
        untouched.status,
        DeliveryStatus::Pending,
        "another claim's report changes nothing"
    );
    assert_eq!(untouched.attempts.len(), 1, "but the attempt is logged");

    let mut disabled_event = event(1, 500, EventType::WebhookEndpointDisabled);
    disabled_event.created_at = at(201);
    let gone = AttemptReport {
        lease: Some(7),
        attempt: attempt(Some(410)),
        delivery: Some((DeliveryStatus::Failed, None)),
        failing_since: Some(at(200)),
        disable: Some(EndpointDisabling {
            reason: DisableReason::Gone,
            at: at(201),
            event: disabled_event,
        }),
        ..stolen
    };
    store.record_attempt(&gone).await.expect("record");
    let failed = store
        .find_delivery(operator_id(1), first.delivery_id)
        .await
        .expect("find");
    assert_eq!(
        failed.map(|d| (d.status, d.attempts.len())),
        Some((DeliveryStatus::Failed, 2))
    );
    let cancelled = store
        .find_delivery(operator_id(1), second.delivery_id)
        .await
        .expect("find");
    assert_eq!(cancelled.map(|d| d.status), Some(DeliveryStatus::Cancelled));
    let ten = store
        .find_endpoint(operator_id(1), WebhookEndpointId::from_u128(10))
        .await
        .expect("find")
        .expect("exists");
    assert_eq!((ten.enabled, ten.disabled_reason), (false, Some(DisableReason::Gone)));
    let announced = store
        .list_deliveries(
            operator_id(1),
            &DeliveryFilter {
                event_type: Some(EventType::WebhookEndpointDisabled),
                ..DeliveryFilter::default()
            },
            PageRequest::default(),
        )
        .await
        .expect("list");
    assert_eq!(
        announced.items.iter().map(|d| d.endpoint_id).collect::<Vec<_>>(),
        [WebhookEndpointId::from_u128(11)]
    );
}

#[tokio::test]
async fn the_log_filters_pages_and_never_shows_another_operator() {
    let (_db, store) = arranged().await;
    given_operator(&store, 2).await;
    store
        .insert_endpoint(&endpoint(2, 20, &[EventType::TradeProcessed]))
        .await
        .expect("insert");
    let events = (100..105).map(|n| event(1, n, EventType::TradeProcessed)).collect();
    commit_events(&store, &endpoint(1, 12, &[EventType::MarketResolved]), events).await;
    commit_events(
        &store,
        &endpoint(2, 20, &[EventType::TradeProcessed]),
        vec![event(2, 900, EventType::TradeProcessed)],
    )
    .await;

    let limit = PageLimit::new(3).expect("limit");
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list_deliveries(operator_id(1), &DeliveryFilter::default(), PageRequest { limit, after })
            .await
            .expect("list");
        seen.extend(page.items.iter().map(|d| d.id));
        after = page.next;
        if after.is_none() {
            break;
        }
    }
    assert_eq!(seen.len(), 10);
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), 10);
    let range = DeliveryFilter {
        endpoint_id: Some(WebhookEndpointId::from_u128(10)),
        created_from: Some(at(101)),
        created_before: Some(at(103)),
        ..DeliveryFilter::default()
    };
    let ranged = store
        .list_deliveries(operator_id(1), &range, PageRequest::default())
        .await
        .expect("list");
    let mut events: Vec<_> = ranged.items.iter().map(|d| d.event_id).collect();
    events.sort();
    assert_eq!(events, [EventId::from_u128(101), EventId::from_u128(102)]);
    let theirs = store
        .list_deliveries(operator_id(2), &DeliveryFilter::default(), PageRequest::default())
        .await
        .expect("list");
    assert_eq!(theirs.items.len(), 1);
    assert_eq!(store.find_delivery(operator_id(2), seen[0]).await.expect("find"), None);
    assert!(
        !store
            .delete_endpoint(operator_id(2), WebhookEndpointId::from_u128(10), at(300))
            .await
            .expect("delete")
    );
    assert!(
        store
            .delete_endpoint(operator_id(1), WebhookEndpointId::from_u128(10), at(300))
            .await
            .expect("delete")
    );
    let pending_for_ten = DeliveryFilter {
        endpoint_id: Some(WebhookEndpointId::from_u128(10)),
        status: Some(DeliveryStatus::Pending),
        ..DeliveryFilter::default()
    };
    let left = store
        .list_deliveries(operator_id(1), &pending_for_ten, PageRequest::default())
        .await
        .expect("list");
    assert!(left.items.is_empty(), "deleting cancels pending deliveries");
}
