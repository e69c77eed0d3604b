//! Statement corrections: stored with their chain document and event against the balance
//! they were computed with (a moved balance or a taken sequence stores nothing), listed
//! newest first per report, summed into the report's balance, and never changed.

use opinion_app::flight::office::model::{BalanceMoves, ChainDocument, Correction, DocumentKind, FinalizedReport};
use opinion_app::flight::office::ports::OfficeStore;
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::{PageLimit, PageRequest, SettlementReportId, StatementCorrectionId};
use opinion_statement::{ChainLink, StatementKey, document_hash, sign};

use super::office_keys::execute;
use super::office_reports::{OCTOBER, finalized_event, given_key, report};
use super::*;

/// Correction `n` of `report`, at chain `sequence`, changing it by `change`.
pub(super) fn correction(n: u128, report: &FinalizedReport, sequence: u64, change: i64) -> Correction {
    let id = StatementCorrectionId::from_u128(n);
    let link = ChainLink::after(&report.statement.signed.document).expect("link");
    let link = ChainLink { sequence, ..link };
    let mut fields = serde_json::Map::new();
    fields.insert("correctionId".into(), json!(id));
    fields.insert("amountChange".into(), json!(change.to_string()));
    link.write_into(&mut fields);
    let signed = sign(serde_json::Value::Object(fields), &StatementKey::from_seed([1; 32])).expect("signed");
    let hash = document_hash(&signed.document).expect("hash");
    Correction {
        id,
        operator_id: report.operator_id,
        report_id: report.id,
        statement_hash: report.statement.hash.clone(),
        amount_change: change,
        reason: "a reviewed ticket".into(),
        issued_by: "Ana".into(),
        document: ChainDocument {
            operator_id: report.operator_id,
            id: id.as_u128(),
            kind: DocumentKind::Correction,
            sequence,
            signed,
            hash,
            issued_at: at(60),
        },
        issued_at: at(60),
    }
}

pub(super) fn correction_event(n: u128) -> NewEvent {
    NewEvent::new(
        EventId::from_u128(n),
        operator_id(1),
        EventType::FlightStatementCorrectionIssued,
        json!({"correctionId": "fsc"}),
        at(60),
    )
}

/// Operator 1 with its key and October finalized (share 3 000).
pub(super) async fn given_finalized_october(store: &PgStore) -> FinalizedReport {
    given_operator(store, 1).await;
    given_key(store).await;
    let october = report(1, 1, OCTOBER);
    store
        .store_finalized_report(&october, &finalized_event(1))
        .await
        .expect("finalized");
    october
}

fn moves(corrections: i64) -> BalanceMoves {
    BalanceMoves {
        corrections,
        ..BalanceMoves::default()
    }
}

#[tokio::test]
async fn a_correction_is_stored_with_its_document_and_event_and_moves_the_balance() {
    let (db, store) = flight_store().await;
    let october = given_finalized_october(&store).await;
    assert_eq!(
        store.report_balance(operator_id(1), october.id).await.expect("balance"),
        BalanceMoves::default()
    );
    let first = correction(10, &october, 2, -500);
    store
        .store_correction(&first, &moves(0), &correction_event(10))
        .await
        .expect("stored");
    let second = correction(11, &october, 3, 200);
    store
        .store_correction(&second, &moves(-500), &correction_event(11))
        .await
        .expect("stored");
    assert_eq!(
        store.report_balance(operator_id(1), october.id).await.expect("balance"),
        moves(-300)
    );
    assert_eq!(
        store.last_chain_document(operator_id(1)).await.expect("last"),
        Some(second.document.clone())
    );
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM webhook_events WHERE event_type = 'mini_app.flight.statement_correction.issued'").await,
        2
    );

    let all = store
        .list_corrections(operator_id(1), Some(october.id), PageRequest::default())
        .await
        .expect("listed");
    assert_eq!(all.items, [second.clone(), first.clone()]);
    let one = PageRequest {
        limit: PageLimit::new(1).expect("limit"),
        after: None,
    };
    let page = store.list_corrections(operator_id(1), None, one).await.expect("page");
    assert_eq!(page.items, std::slice::from_ref(&second));
    let rest = store
        .list_corrections(
            operator_id(1),
            None,
            PageRequest {
                after: page.next,
                ..one
            },
        )
        .await
        .expect("rest");
    assert_eq!(rest.items, [first]);
    assert!(rest.next.is_none());
    let none = store
        .list_corrections(
            operator_id(1),
            Some(SettlementReportId::from_u128(99)),
            PageRequest::default(),
        )
        .await
        .expect("other report");
    assert!(none.items.is_empty());
    let theirs = store
        .list_corrections(operator_id(2), None, PageRequest::default())
        .await
        .expect("other operator");
    assert!(theirs.items.is_empty());
}

#[tokio::test]
async fn a_correction_against_a_moved_balance_or_a_taken_sequence_stores_nothing() {
    let (db, store) = flight_store().await;
    let october = given_finalized_october(&store).await;
    store
        .store_correction(&correction(10, &october, 2, -500), &moves(0), &correction_event(10))
        .await
        .expect("stored");
    let stale = store
        .store_correction(&correction(11, &october, 3, 100), &moves(0), &correction_event(11))
        .await;
    assert!(
        matches!(stale, Err(StoreError::Conflict(ChangedRecord::SettlementBalance))),
        "{stale:?}"
    );
    let taken = store
        .store_correction(&correction(12, &october, 2, 100), &moves(-500), &correction_event(12))
        .await;
    assert!(matches!(taken, Err(StoreError::Duplicate(_))), "{taken:?}");
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM flight_statement_corrections").await,
        1
    );
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_statements").await, 2);
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM webhook_events WHERE event_type = 'mini_app.flight.statement_correction.issued'").await,
        1
    );
}

#[tokio::test]
async fn a_correction_is_never_changed_or_deleted() {
    let (db, store) = flight_store().await;
    let october = given_finalized_october(&store).await;
    store
        .store_correction(&correction(10, &october, 2, -500), &moves(0), &correction_event(10))
        .await
        .expect("stored");
    for sql in [
        "UPDATE flight_statement_corrections SET amount_change = 1",
        "UPDATE flight_statement_corrections SET reason = 'other'",
        "DELETE FROM flight_statement_corrections",
        "TRUNCATE flight_statement_corrections",
        "DELETE FROM flight_statements WHERE kind = 'correction'",
    ] {
        let refused = execute(&db, sql).await.expect_err(sql);
        assert!(refused.contains("never updated or deleted"), "{sql}: {refused}");
    }
    for sql in [
        "INSERT INTO flight_statement_corrections SELECT operator_id, gen_random_uuid(), report_id, statement_hash, 0, reason, issued_by, document_sequence, issued_at FROM flight_statement_corrections",
        "INSERT INTO flight_statement_corrections SELECT operator_id, gen_random_uuid(), report_id, statement_hash, 5, ' ', issued_by, document_sequence, issued_at FROM flight_statement_corrections",
    ] {
        execute(&db, sql).await.expect_err(sql);
    }
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM flight_statement_corrections").await,
        1
    );
}
