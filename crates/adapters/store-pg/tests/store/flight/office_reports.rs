//! Finalized reports: stored once per period and sequence with their statement and
//! event, two finalizations at once leave one, lines come in purchase order in chunks,
//! and the database refuses changing or deleting a finalized statement.

use opinion_app::flight::office::model::StatementKeyRecord;
use opinion_app::flight::office::model::{ChainDocument, DocumentKind, FinalizedReport};
use opinion_app::flight::office::ports::{OfficeStore, StatementKeyStore};
use opinion_app::ports::StoreError;
use opinion_core::SettlementReportId;
use opinion_flight::ReportTotals;
use opinion_statement::{ChainLink, StatementKey, document_hash, sign};
use time::macros::{date, datetime};

use super::office_keys::execute;
use super::*;

const OCTOBER: time::OffsetDateTime = datetime!(2026-10-01 00:00 UTC);
const NOVEMBER: time::OffsetDateTime = datetime!(2026-11-01 00:00 UTC);

fn report(id: u128, sequence: u64, period_start: time::OffsetDateTime) -> FinalizedReport {
    let key = StatementKey::from_seed([1; 32]);
    let link = ChainLink {
        sequence,
        previous_hash: (sequence > 1).then(|| opinion_statement::DocumentHash::parse(&"a".repeat(64)).expect("hash")),
    };
    let mut fields = serde_json::Map::new();
    fields.insert("reportId".into(), json!(SettlementReportId::from_u128(id)));
    link.write_into(&mut fields);
    let signed = sign(serde_json::Value::Object(fields), &key).expect("signed");
    let hash = document_hash(&signed.document).expect("hash");
    FinalizedReport {
        id: SettlementReportId::from_u128(id),
        operator_id: operator_id(1),
        period_start,
        period_end: period_start + time::Duration::days(31),
        totals: ReportTotals {
            ticket_count: 2,
            stakes: 20_000,
            payouts: 0,
            refunds: 0,
            ggr: 20_000,
            share: 3_000,
        },
        due_date: date!(2026 - 11 - 16),
        lines_sha256: "b".repeat(64),
        statement: ChainDocument {
            operator_id: operator_id(1),
            id,
            kind: DocumentKind::Statement,
            sequence,
            signed,
            hash,
            issued_at: T0,
        },
        finalized_at: T0,
    }
}

fn finalized_event(n: u128) -> NewEvent {
    NewEvent::new(
        EventId::from_u128(n),
        operator_id(1),
        EventType::FlightSettlementReportFinalized,
        json!({"reportId": "fsr"}),
        T0,
    )
}

async fn given_key(store: &PgStore) {
    let key = StatementKey::from_seed([1; 32]);
    store
        .register_statement_key(&StatementKeyRecord::new(key.public_key(), T0))
        .await
        .expect("key");
}

#[tokio::test]
async fn a_report_is_stored_once_with_its_statement_and_read_back() {
    let (db, store) = flight_store().await;
    given_operator(&store, 1).await;
    given_key(&store).await;
    let october = report(1, 1, OCTOBER);
    store
        .store_finalized_report(&october, &finalized_event(1))
        .await
        .expect("stored");
    assert_eq!(
        store.report_of_period(operator_id(1), OCTOBER).await.expect("read"),
        Some(october.clone())
    );
    assert_eq!(
        store.last_chain_document(operator_id(1)).await.expect("last"),
        Some(october.statement.clone())
    );
    let same_period = store
        .store_finalized_report(&report(2, 2, OCTOBER), &finalized_event(2))
        .await;
    assert!(matches!(same_period, Err(StoreError::Duplicate(_))), "{same_period:?}");
    let same_sequence = store
        .store_finalized_report(&report(3, 1, NOVEMBER), &finalized_event(3))
        .await;
    assert!(
        matches!(same_sequence, Err(StoreError::Duplicate(_))),
        "{same_sequence:?}"
    );
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM flight_settlement_reports").await,
        1
    );
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_statements").await, 1);
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM webhook_events WHERE event_type = 'mini_app.flight.settlement_report.finalized'").await,
        1
    );
}

#[tokio::test]
async fn two_finalizations_at_once_leave_one_report_and_one_statement() {
    let (db, store) = flight_store().await;
    given_operator(&store, 1).await;
    given_key(&store).await;
    let store = std::sync::Arc::new(store);
    let (one, other) = (report(1, 1, OCTOBER), report(2, 1, OCTOBER));
    let (first_event, second_event) = (finalized_event(1), finalized_event(2));
    let (a, b) = tokio::join!(
        store.store_finalized_report(&one, &first_event),
        store.store_finalized_report(&other, &second_event),
    );
    assert!(a.is_ok() != b.is_ok(), "{a:?} {b:?}");
    assert_eq!(
        count(&db, "SELECT count(*) AS count FROM flight_settlement_reports").await,
        1
    );
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_statements").await, 1);
}

#[tokio::test]
async fn a_finalized_statement_is_never_changed_or_deleted() {
    let (db, store) = flight_store().await;
    given_operator(&store, 1).await;
    given_key(&store).await;
    store
        .store_finalized_report(&report(1, 1, OCTOBER), &finalized_event(1))
        .await
        .expect("stored");
    for sql in [
        "UPDATE flight_statements SET document = '{}'",
        "UPDATE flight_statements SET signature = 'x'",
        "DELETE FROM flight_statements",
        "TRUNCATE flight_statements CASCADE",
        "UPDATE flight_settlement_reports SET share = share",
        "DELETE FROM flight_settlement_reports",
        "TRUNCATE flight_settlement_reports",
    ] {
        let refused = execute(&db, sql).await.expect_err(sql);
        assert!(refused.contains("never updated or deleted"), "{sql}: {refused}");
    }
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_statements").await, 1);
}

#[tokio::test]
async fn lines_come_in_purchase_order_in_chunks_with_their_money_and_open_tickets_are_counted() {
    let (_db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let mut ids = Vec::new();
    for (n, status) in [
        (1, TicketStatus::Lost),
        (2, TicketStatus::CashedOut),
        (3, TicketStatus::Refunding),
        (4, TicketStatus::Rejected),
        (5, TicketStatus::Review),
        (6, TicketStatus::Active),
    ] {
        let mut ticket = ticket(1, 1, n, &flight);
        ticket.client_ticket_id = format!("c-{n}");
        store
            .open_ticket(&NewTicket {
                cap: 10,
                ..new_ticket(&ticket)
            })
            .await
            .expect("open");
        ids.push((ticket.clone(), status));
    }
    let mut conn = AsyncPgConnection::establish(_db.url()).await.expect("connect");
    for (ticket, status) in &ids {
        let cash_out = if *status == TicketStatus::CashedOut {
            "payout = 20000, cash_out_hundredths = 200, cashed_out_at = created_at"
        } else {
            "payout = NULL"
        };
        diesel::sql_query(format!(
            "UPDATE flight_tickets SET status = '{status}', {cash_out} WHERE id = '{}'",
            uuid::Uuid::from_u128(ticket.id.as_u128())
        ))
        .execute(&mut conn)
        .await
        .expect("status");
    }
    let (start, end) = (T0, T0 + time::Duration::days(1));
    let counts = store
        .period_ticket_counts(operator_id(1), start, end)
        .await
        .expect("counts");
    assert_eq!((counts.unsettled, counts.in_review), (1, 1));
    let first = store
        .report_lines(operator_id(1), start, end, None, 2)
        .await
        .expect("chunk");
    assert_eq!(
        first.iter().map(|l| l.outcome).collect::<Vec<_>>(),
        ["lost", "cashed_out"]
    );
    assert_eq!(first[1].line.payout.get(), 20_000);
    let cursor = first.last().map(|l| (l.purchased_at, l.ticket_id));
    let rest = store
        .report_lines(operator_id(1), start, end, cursor, 2)
        .await
        .expect("chunk");
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].outcome, "refunded");
    assert_eq!(rest[0].line.refund, rest[0].line.stake);
}

#[tokio::test]
async fn the_report_periods_are_the_months_with_tickets_or_a_finalized_report_newest_first() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    given_operator(&store, 2).await;
    given_key(&store).await;
    let flight = given_flight(&store, 1).await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    for (n, bought) in [
        (1, "2026-10-03T10:00:00Z"),
        (2, "2026-10-31T23:59:59Z"),
        (3, "2026-12-01T00:00:00Z"),
    ] {
        let mut ticket = ticket(1, 1, n, &flight);
        ticket.client_ticket_id = format!("c-{n}");
        store
            .open_ticket(&NewTicket {
                cap: 10,
                ..new_ticket(&ticket)
            })
            .await
            .expect("open");
        diesel::sql_query(format!(
            "UPDATE flight_tickets SET created_at = '{bought}' WHERE id = '{}'",
            uuid::Uuid::from_u128(ticket.id.as_u128())
        ))
        .execute(&mut conn)
        .await
        .expect("bought");
    }
    let august = report(7, 1, datetime!(2026-08-01 00:00 UTC));
    store
        .store_finalized_report(&august, &finalized_event(1))
        .await
        .expect("stored");
    let december = datetime!(2026-12-01 00:00 UTC);
    let august_start = datetime!(2026-08-01 00:00 UTC);

    let all = store.report_periods(operator_id(1), None, 10).await.expect("periods");
    assert_eq!(all, [december, OCTOBER, august_start]);
    let page = store.report_periods(operator_id(1), None, 2).await.expect("periods");
    assert_eq!(page, [december, OCTOBER]);
    let after = store
        .report_periods(operator_id(1), Some(OCTOBER), 10)
        .await
        .expect("periods");
    assert_eq!(after, [august_start]);
    assert!(
        store
            .report_periods(operator_id(2), None, 10)
            .await
            .expect("other")
            .is_empty()
    );

    assert_eq!(
        store
            .finalized_reports(operator_id(1), august_start, december)
            .await
            .expect("finalized"),
        std::slice::from_ref(&august)
    );
    assert_eq!(
        store.find_report(operator_id(1), august.id).await.expect("found"),
        Some(august.clone())
    );
    assert_eq!(store.find_report(operator_id(2), august.id).await.expect("other"), None);
}
