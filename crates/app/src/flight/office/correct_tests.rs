//! Issuing statement corrections: the signed document chained after the statement, its
//! event, the report's balance after it, what is refused, and a correction whose report
//! changed while it was made.

use std::sync::Arc;

use opinion_core::{PageRequest, StatementCorrectionId};
use opinion_flight::{PaymentDirection, Rupiah};
use opinion_statement::{verify, verify_link};
use opinion_webhook::EventType;
use serde_json::json;

use crate::error::{AppError, ProblemCode};
use crate::flight::office::finalize_tests::{OCTOBER, finalized, known, store_with_tickets};
use crate::flight::office::model::{Correction, FinalizedReport};
use crate::flight::office::{CorrectionRequest, FlightOffice, ReportAddress};
use crate::test_support::flight::ManualClock;
use crate::test_support::office::{MemoryKeys, MemoryOffice, office_over};
use crate::test_support::{NOW, OPERATOR};

/// A back office with October finalized: three tickets, a share of −2 190 (the platform
/// owes the operator 2 190).
async fn finalized_october() -> (FlightOffice, Arc<MemoryOffice>, FinalizedReport) {
    let store = store_with_tickets(3);
    let office = office_over(1, Arc::new(MemoryKeys::default()), store.clone(), ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    assert_eq!(report.totals.share, -2_190);
    (office, store, report)
}

fn request(report: ReportAddress, amount_change: i64) -> CorrectionRequest {
    CorrectionRequest {
        operator: OPERATOR,
        report,
        amount_change,
        reason: "  a reviewed ticket resolved as not applied ".into(),
        by: "Ana".into(),
    }
}

#[tokio::test]
async fn a_correction_is_a_signed_document_chained_after_the_statement_and_changes_what_is_due() {
    let (office, store, report) = finalized_october().await;
    let correction = office
        .issue_correction(request(ReportAddress::Id(report.id), 5_000))
        .await
        .expect("issued");

    let document = &correction.document.signed.document;
    assert_eq!(document["type"], "flight_statement_correction");
    assert_eq!(document["correctionId"], correction.id.to_string());
    assert_eq!(document["reportId"], report.id.to_string());
    assert_eq!(document["statementHash"], report.statement.hash.to_string());
    assert_eq!(document["statementSequence"], 1);
    assert_eq!(document["proofVersion"], 5);
    let statement = &report.statement.signed.document;
    assert_eq!(
        document["merkleRoot"], statement["merkleRoot"],
        "the amended statement's tree"
    );
    assert_eq!(document["leafCount"], 3);
    assert_eq!(document["amountChange"], json!({"amount": "5000", "currency": "IDR"}));
    assert_eq!(
        document["amountDueBefore"],
        json!({"amount": "2190", "currency": "IDR"})
    );
    assert_eq!(document["directionBefore"], "platform_to_operator");
    assert_eq!(document["amountDue"], json!({"amount": "2810", "currency": "IDR"}));
    assert_eq!(document["direction"], "operator_to_platform");
    assert_eq!(document["currency"], "IDR");
    assert_eq!(document["reason"], "a reviewed ticket resolved as not applied");
    assert!(document.get("issuedBy").is_none(), "who issued it is kept, not signed");
    assert_eq!(correction.issued_by, "Ana");
    assert_eq!(
        verify(&correction.document.signed, known(1)).expect("verified"),
        correction.document.hash
    );
    verify_link(document, Some(&report.statement.signed.document)).expect("chained after the statement");

    let events = store.events.lock().expect("events").clone();
    let event = events.last().expect("event");
    assert_eq!(event.event_type, EventType::FlightStatementCorrectionIssued);
    assert_eq!(
        serde_json::Value::Object(event.data.clone()),
        json!({
            "correctionId": correction.id,
            "reportId": report.id,
            "statementHash": report.statement.hash.to_string(),
            "amountChange": "5000",
            "currency": "IDR",
            "reason": "a reviewed ticket resolved as not applied",
            "issuedAt": document["issuedAt"],
        })
    );

    let read = office
        .report(OPERATOR, ReportAddress::Period(OCTOBER))
        .await
        .expect("read");
    let balance = read.balance.expect("a finalized report has a balance");
    assert_eq!(balance.corrections, 5_000);
    assert_eq!(
        balance.remaining_due(),
        (Rupiah::new(2_810).expect("idr"), PaymentDirection::OperatorToPlatform)
    );
    assert_eq!(read.totals, report.totals, "the statement's figures never change");

    let second = office
        .issue_correction(request(ReportAddress::Period(OCTOBER), -810))
        .await
        .expect("second");
    assert_eq!(second.document.signed.document["amountDueBefore"]["amount"], "2810");
    assert_eq!(second.document.signed.document["amountDue"]["amount"], "2000");
    verify_link(&second.document.signed.document, Some(document)).expect("chained after the first");
    let page = office
        .list_corrections(OPERATOR, Some(&report.id.to_string()), PageRequest::default())
        .await
        .expect("listed");
    let ids: Vec<StatementCorrectionId> = page.items.iter().map(|c: &Correction| c.id).collect();
    assert_eq!(ids, [second.id, correction.id], "newest first");
}

#[tokio::test]
async fn a_correction_is_refused_for_an_open_report_bad_fields_and_another_operators_report() {
    let (office, store, report) = finalized_october().await;
    let november = ReportAddress::Period(time::macros::datetime!(2026-11-01 00:00 UTC));
    match office.issue_correction(request(november, 100)).await {
        Err(AppError::Conflict { code, .. }) => assert_eq!(code, ProblemCode::ReportNotFinalized),
        other => panic!("open report: {other:?}"),
    }
    for (change, reason, by, field) in [
        (0, "why", "Ana", "amountChange"),
        (i64::MIN, "why", "Ana", "amountChange"),
        (100, "  ", "Ana", "reason"),
        (100, &"x".repeat(1_001) as &str, "Ana", "reason"),
        (100, "why", " ", "by"),
        (100, "why", &"b".repeat(201) as &str, "by"),
    ] {
        let mut bad = request(ReportAddress::Id(report.id), change);
        bad.reason = reason.into();
        bad.by = by.into();
        match office.issue_correction(bad).await {
            Err(AppError::Invalid { field: named, .. }) => assert_eq!(named, field),
            other => panic!("{field}: {other:?}"),
        }
    }
    let mut theirs = request(ReportAddress::Id(report.id), 100);
    theirs.operator = opinion_core::OperatorId::from_u128(2);
    assert!(matches!(
        office.issue_correction(theirs).await,
        Err(AppError::NotFound(_))
    ));
    assert!(store.corrections.lock().expect("corrections").is_empty());
    assert_eq!(store.events.lock().expect("events").len(), 1, "the finalization's only");
}

#[tokio::test]
async fn a_correction_whose_report_changed_meanwhile_is_made_again_from_what_is_stored() {
    let (office, store, report) = finalized_october().await;
    let first = office
        .issue_correction(request(ReportAddress::Id(report.id), 1_000))
        .await
        .expect("first");
    let mut other = first.clone();
    other.id = StatementCorrectionId::from_u128(u128::MAX);
    other.amount_change = 500;
    other.document.sequence = first.document.sequence + 1;
    other.document.signed.document["sequence"] = json!(other.document.sequence);
    store.interleaved.lock().expect("interleaved").push(other);

    let next = office
        .issue_correction(request(ReportAddress::Id(report.id), 10))
        .await
        .expect("made again");
    assert_eq!(next.document.sequence, 4, "after the document that landed meanwhile");
    assert_eq!(next.document.signed.document["sequence"], 4);
    assert_eq!(
        next.document.signed.document["amountDueBefore"]["amount"], "690",
        "−2 190 + 1 000 + 500"
    );
    assert_eq!(next.document.signed.document["amountDue"]["amount"], "680");
}
