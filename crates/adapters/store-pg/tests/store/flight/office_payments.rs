//! Settlement payments: stored with their event against the balance they were checked
//! with, two at once never both land on the same balance, a reference is recorded once
//! per operator (case aside), they sum into the report's balance, list newest first, and
//! are never changed.

use std::sync::Arc;

use opinion_app::flight::office::model::{BalanceMoves, FinalizedReport, Payment};
use opinion_app::flight::office::ports::OfficeStore;
use opinion_app::ports::{ChangedRecord, StoreError, UniqueKey};
use opinion_core::{PageRequest, SettlementPaymentId};
use opinion_flight::PaymentDirection;
use time::macros::date;

use super::office_corrections::given_finalized_october;
use super::office_keys::execute;
use super::*;

fn payment(n: u128, report: &FinalizedReport, amount: i64, reference: &str) -> Payment {
    Payment {
        id: SettlementPaymentId::from_u128(n),
        operator_id: report.operator_id,
        report_id: report.id,
        amount: rupiah(amount),
        direction: PaymentDirection::OperatorToPlatform,
        paid_on: date!(2026 - 11 - 14),
        reference: reference.into(),
        recorded_by: "Ana".into(),
        remaining_due: rupiah(3_000 - amount),
        remaining_direction: PaymentDirection::OperatorToPlatform,
        recorded_at: at(120),
    }
}

fn payment_event(n: u128) -> NewEvent {
    NewEvent::new(
        EventId::from_u128(n),
        operator_id(1),
        EventType::FlightPaymentRecorded,
        json!({"paymentId": "fpy"}),
        at(120),
    )
}

fn paid(to_platform: i64) -> BalanceMoves {
    BalanceMoves {
        paid_to_platform: to_platform,
        ..BalanceMoves::default()
    }
}

#[tokio::test]
async fn payments_are_stored_with_their_event_sum_into_the_balance_and_list_newest_first() {
    let (db, store) = flight_store().await;
    let october = given_finalized_october(&store).await;
    let first = payment(10, &october, 1_000, "BCA-1");
    store
        .record_payment(&first, &paid(0), &payment_event(10))
        .await
        .expect("first");
    let mut back = payment(11, &october, 200, "BCA-2");
    back.direction = PaymentDirection::PlatformToOperator;
    store
        .record_payment(&back, &paid(1_000), &payment_event(11))
        .await
        .expect("second");
    assert_eq!(
        store.report_balance(operator_id(1), october.id).await.expect("balance"),
        BalanceMoves {
            corrections: 0,
            paid_to_platform: 1_000,
            paid_to_operator: 200,
        }
    );
    let listed = store
        .list_payments(operator_id(1), Some(october.id), PageRequest::default())
        .await
        .expect("listed");
    assert_eq!(listed.items, [back, first]);
    assert!(
        store
            .list_payments(operator_id(2), None, PageRequest::default())
            .await
            .expect("other")
            .items
            .is_empty()
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) AS count FROM webhook_events WHERE event_type = 'mini_app.flight.payment.recorded'"
        )
        .await,
        2
    );
}

#[tokio::test]
async fn two_payments_at_once_on_the_same_balance_land_once() {
    let (db, store) = flight_store().await;
    let october = given_finalized_october(&store).await;
    let store = Arc::new(store);
    let (one, other) = (
        payment(10, &october, 2_000, "BCA-1"),
        payment(11, &october, 2_000, "BCA-2"),
    );
    let (first_event, second_event) = (payment_event(10), payment_event(11));
    let nothing_paid = paid(0);
    let (a, b) = tokio::join!(
        store.record_payment(&one, &nothing_paid, &first_event),
        store.record_payment(&other, &nothing_paid, &second_event),
    );
    assert!(a.is_ok() != b.is_ok(), "{a:?} {b:?}");
    let lost = a.err().or(b.err()).expect("one refused");
    assert!(
        matches!(lost, StoreError::Conflict(ChangedRecord::SettlementBalance)),
        "{lost:?}"
    );
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM flight_settlement_payments").await,
        1
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) AS count FROM webhook_events WHERE event_type = 'mini_app.flight.payment.recorded'"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn a_reference_is_recorded_once_per_operator_case_aside() {
    let (db, store) = flight_store().await;
    let october = given_finalized_october(&store).await;
    store
        .record_payment(&payment(10, &october, 100, "BCA-1"), &paid(0), &payment_event(10))
        .await
        .expect("first");
    let again = store
        .record_payment(&payment(11, &october, 100, "bca-1"), &paid(100), &payment_event(11))
        .await;
    assert!(
        matches!(again, Err(StoreError::Duplicate(UniqueKey::PaymentReference))),
        "{again:?}"
    );
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM flight_settlement_payments").await,
        1
    );
}

#[tokio::test]
async fn a_payment_is_never_changed_or_deleted() {
    let (db, store) = flight_store().await;
    let october = given_finalized_october(&store).await;
    store
        .record_payment(&payment(10, &october, 100, "BCA-1"), &paid(0), &payment_event(10))
        .await
        .expect("stored");
    for sql in [
        "UPDATE flight_settlement_payments SET amount = 1",
        "UPDATE flight_settlement_payments SET reference = 'other'",
        "DELETE FROM flight_settlement_payments",
        "TRUNCATE flight_settlement_payments",
    ] {
        let refused = execute(&db, sql).await.expect_err(sql);
        assert!(refused.contains("never updated or deleted"), "{sql}: {refused}");
    }
    for sql in [
        "INSERT INTO flight_settlement_payments SELECT operator_id, gen_random_uuid(), report_id, 0, direction, paid_on, 'R-0', recorded_by, remaining_due, remaining_direction, recorded_at FROM flight_settlement_payments",
        "INSERT INTO flight_settlement_payments SELECT operator_id, gen_random_uuid(), report_id, amount, 'none', paid_on, 'R-1', recorded_by, remaining_due, remaining_direction, recorded_at FROM flight_settlement_payments",
        "INSERT INTO flight_settlement_payments SELECT operator_id, gen_random_uuid(), report_id, amount, direction, paid_on, ' R-2', recorded_by, remaining_due, remaining_direction, recorded_at FROM flight_settlement_payments",
        "INSERT INTO flight_settlement_payments SELECT operator_id, gen_random_uuid(), report_id, amount, direction, paid_on, 'R-3', recorded_by, 0, 'operator_to_platform', recorded_at FROM flight_settlement_payments",
    ] {
        execute(&db, sql).await.expect_err(sql);
    }
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM flight_settlement_payments").await,
        1
    );
}
