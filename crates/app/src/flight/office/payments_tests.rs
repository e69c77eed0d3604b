//! Recording payments: partial payments down to zero with their event, what is refused
//! (more than remains, the other way, a reference twice, bad fields, an open report),
//! and a payment checked again when another landed meanwhile.

use std::sync::Arc;

use opinion_core::PageRequest;
use opinion_flight::{PaymentDirection, Rupiah};
use opinion_webhook::EventType;
use serde_json::json;
use time::macros::date;

use crate::error::{AppError, ProblemCode};
use crate::flight::office::finalize_tests::{OCTOBER, finalized, store_with_tickets};
use crate::flight::office::model::FinalizedReport;
use crate::flight::office::{CorrectionRequest, FlightOffice, PaymentRequest, ReportAddress};
use crate::test_support::flight::ManualClock;
use crate::test_support::office::{MemoryKeys, MemoryOffice, office_over};
use crate::test_support::{NOW, OPERATOR};

/// October finalized (the platform owes 2 190), then corrected by +5 000: the operator
/// owes the platform 2 810.
async fn october_owing_2810() -> (FlightOffice, Arc<MemoryOffice>, FinalizedReport) {
    let store = store_with_tickets(3);
    let office = office_over(1, Arc::new(MemoryKeys::default()), store.clone(), ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    office
        .issue_correction(CorrectionRequest {
            operator: OPERATOR,
            report: ReportAddress::Id(report.id),
            amount_change: 5_000,
            reason: "commercial adjustment".into(),
            by: "Ana".into(),
        })
        .await
        .expect("corrected");
    (office, store, report)
}

fn payment(amount: i64, reference: &str) -> PaymentRequest {
    PaymentRequest {
        operator: OPERATOR,
        report: ReportAddress::Period(OCTOBER),
        amount,
        direction: "operator_to_platform".into(),
        paid_on: date!(2026 - 11 - 14),
        reference: reference.into(),
        by: "Ana".into(),
    }
}

fn code_of(result: Result<crate::flight::office::model::Payment, AppError>) -> ProblemCode {
    match result {
        Err(AppError::Conflict { code, .. }) => code,
        other => panic!("not a conflict: {other:?}"),
    }
}

#[tokio::test]
async fn partial_payments_pay_down_what_remains_after_corrections_and_no_more() {
    let (office, store, report) = october_owing_2810().await;
    let first = office.record_payment(payment(2_000, " BCA-1 ")).await.expect("partial");
    assert_eq!(first.reference, "BCA-1");
    assert_eq!(
        (first.remaining_due, first.remaining_direction),
        (Rupiah::new(810).expect("idr"), PaymentDirection::OperatorToPlatform)
    );
    let event = store.events.lock().expect("events").last().cloned().expect("event");
    assert_eq!(event.event_type, EventType::FlightPaymentRecorded);
    assert_eq!(
        serde_json::Value::Object(event.data),
        json!({
            "paymentId": first.id,
            "reportId": report.id,
            "amount": "2000",
            "currency": "IDR",
            "direction": "operator_to_platform",
            "paidOn": "2026-11-14",
            "reference": "BCA-1",
            "remainingDue": "810",
            "recordedAt": "2026-11-22T12:00:00Z",
        })
    );

    assert_eq!(
        code_of(office.record_payment(payment(811, "BCA-2")).await),
        ProblemCode::PaymentExceedsDue
    );
    let mut back = payment(10, "BCA-3");
    back.direction = "platform_to_operator".into();
    assert_eq!(
        code_of(office.record_payment(back).await),
        ProblemCode::PaymentExceedsDue
    );
    assert_eq!(
        code_of(office.record_payment(payment(10, "bca-1")).await),
        ProblemCode::PaymentReferenceTaken,
        "a reference is recorded once, case aside"
    );
    let rest = office.record_payment(payment(810, "BCA-4")).await.expect("the rest");
    assert_eq!(rest.remaining_direction, PaymentDirection::None);
    assert_eq!(
        code_of(office.record_payment(payment(1, "BCA-5")).await),
        ProblemCode::PaymentExceedsDue,
        "nothing remains"
    );

    let read = office
        .report_payments(OPERATOR, ReportAddress::Id(report.id), PageRequest::default())
        .await
        .expect("read");
    assert_eq!(read.balance.paid_to_platform, 2_810);
    assert_eq!(read.balance.remaining_due().0, Rupiah::ZERO);
    let ids: Vec<_> = read.payments.items.iter().map(|p| p.id).collect();
    assert_eq!(ids, [rest.id, first.id], "newest first");
    assert_eq!(store.payments.lock().expect("payments").len(), 2);
}

#[tokio::test]
async fn bad_fields_and_an_open_report_record_nothing() {
    let (office, store, _) = october_owing_2810().await;
    let mut cases = Vec::new();
    cases.push(("amount", payment(0, "R")));
    cases.push(("amount", payment(-5, "R")));
    let mut none = payment(5, "R");
    none.direction = "none".into();
    cases.push(("direction", none));
    cases.push(("reference", payment(5, "  ")));
    cases.push(("reference", payment(5, &"r".repeat(201))));
    let mut nobody = payment(5, "R");
    nobody.by = " ".into();
    cases.push(("by", nobody));
    let mut long_name = payment(5, "R");
    long_name.by = "b".repeat(201);
    cases.push(("by", long_name));
    let mut tomorrow = payment(5, "R");
    tomorrow.paid_on = date!(2026 - 11 - 23);
    cases.push(("paidOn", tomorrow));
    for (field, request) in cases {
        match office.record_payment(request).await {
            Err(AppError::Invalid { field: named, .. }) => assert_eq!(named, field),
            other => panic!("{field}: {other:?}"),
        }
    }
    let mut open = payment(5, "R");
    open.report = ReportAddress::Period(time::macros::datetime!(2026-11-01 00:00 UTC));
    assert_eq!(
        code_of(office.record_payment(open).await),
        ProblemCode::ReportNotFinalized
    );
    assert!(store.payments.lock().expect("payments").is_empty());
}

#[tokio::test]
async fn a_payment_is_checked_again_against_one_that_landed_meanwhile() {
    let (office, store, _) = october_owing_2810().await;
    let landed = office.record_payment(payment(2_000, "BCA-1")).await.expect("first");
    store.payments.lock().expect("payments").clear();
    store.interleaved_payments.lock().expect("interleaved").push(landed);

    assert_eq!(
        code_of(office.record_payment(payment(1_000, "BCA-2")).await),
        ProblemCode::PaymentExceedsDue,
        "checked again against the 810 the other payment left"
    );
    let fits = office.record_payment(payment(800, "BCA-3")).await.expect("fits");
    assert_eq!(fits.remaining_due, Rupiah::new(10).expect("idr"));
}
