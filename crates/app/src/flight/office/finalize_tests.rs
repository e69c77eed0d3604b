//! Finalizing a period's report: every blocker at once, the totals of every line read in
//! chunks, the signed and chained statement, its event, and a finalization that lost the
//! race finding the stored report.

use std::sync::Arc;

use opinion_core::{FlightTermsId, TicketId};
use opinion_flight::{
    FinalizationBlocker, Rupiah, SettlementPeriod, ShareBps, Terms, TermsVersion, TicketLimits, TicketStatus,
};
use opinion_statement::{KnownKey, StatementKey, verify, verify_link};
use opinion_webhook::EventType;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::flight::model::TermsRecord;
use crate::flight::office::FinalizeOutcome;
use crate::flight::office::model::FinalizedReport;
use crate::test_support::flight::ManualClock;
use crate::test_support::flight_reads::ticket;
use crate::test_support::office::{MemoryKeys, MemoryOffice, office_over};
use crate::test_support::{NOW, OPERATOR};

pub(super) const OCTOBER: OffsetDateTime = datetime!(2026-10-01 00:00 UTC);

pub(super) fn terms_record() -> TermsRecord {
    let idr = |value| Rupiah::new(value).expect("rupiah");
    let limits = TicketLimits::new(idr(1_000), idr(1_000_000), idr(100_000_000), 2).expect("limits");
    TermsRecord {
        operator_id: OPERATOR,
        version: TermsVersion {
            id: FlightTermsId::from_u128(1),
            effective_from: OCTOBER - Duration::days(30),
            terms: Terms::new(
                ShareBps::new(1_500).expect("share"),
                limits,
                SettlementPeriod::CalendarMonth,
                15,
            )
            .expect("terms"),
        },
        created_at: OCTOBER - Duration::days(30),
        created_by: "Ana".into(),
        cancelled: None,
    }
}

/// A store with the terms and `n` October tickets: lost, cashed out at 3.46×, refunded.
pub(super) fn store_with_tickets(n: u128) -> Arc<MemoryOffice> {
    let store = Arc::new(MemoryOffice::default());
    let mut memory = store.flight.memory();
    memory.terms.push(terms_record());
    for i in 1..=n {
        let status = match i % 3 {
            0 => TicketStatus::Lost,
            1 => TicketStatus::CashedOut,
            _ => TicketStatus::Refunded,
        };
        let mut ticket = ticket(i, status);
        ticket.created_at = OCTOBER + Duration::minutes(i64::try_from(i).expect("small"));
        if status == TicketStatus::CashedOut {
            ticket.payout = Some(Rupiah::new(34_600).expect("payout"));
        }
        memory.tickets.insert(ticket.id, ticket);
    }
    drop(memory);
    store
}

pub(super) fn finalized(outcome: FinalizeOutcome) -> FinalizedReport {
    match outcome {
        FinalizeOutcome::Finalized(report) => *report,
        other => panic!("not finalized: {other:?}"),
    }
}

pub(super) fn known(seed: u8) -> impl Fn(&str) -> Option<KnownKey> {
    let key = StatementKey::from_seed([seed; 32]);
    move |id: &str| {
        (id == key.key_id().as_str()).then(|| KnownKey {
            public_key: key.public_key(),
            retired_at: None,
        })
    }
}

#[tokio::test]
async fn a_finalized_report_sums_every_line_in_chunks_and_signs_a_chained_statement() {
    let store = store_with_tickets(1_201);
    let keys = Arc::new(MemoryKeys::default());
    let office = office_over(1, keys, store.clone(), ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));

    assert_eq!(
        *store.chunks_read.lock().expect("chunks"),
        3,
        "1 201 lines in chunks of 500"
    );
    let totals = report.totals;
    assert_eq!(totals.ticket_count, 1_201);
    assert_eq!(totals.stakes, 12_010_000);
    assert_eq!(totals.payouts, 401 * 34_600);
    assert_eq!(totals.refunds, 400 * 10_000);
    assert_eq!(totals.ggr, totals.stakes - totals.payouts - totals.refunds);
    assert_eq!(totals.share, 400 * 1_500 + 401 * -3_690);
    assert_eq!(report.period_end, datetime!(2026-11-01 00:00 UTC));
    assert_eq!(report.due_date.to_string(), "2026-11-16");

    let document = &report.statement.signed.document;
    assert_eq!(document["type"], "flight_settlement_statement");
    assert_eq!(document["reportId"], report.id.to_string());
    assert_eq!(
        document["share"],
        serde_json::json!([{"amount": totals.share.to_string(), "currency": "IDR"}])
    );
    assert_eq!(
        document["amountDue"],
        serde_json::json!({"amount": totals.share.abs().to_string(), "currency": "IDR"})
    );
    assert_eq!(document["proofVersion"], 5);
    assert_eq!(document["leafCount"], 1_201);
    assert_eq!(document["direction"], "platform_to_operator");
    assert_eq!(document["linesSha256"], report.lines_sha256);
    assert_eq!(document["sequence"], 1);
    assert_eq!(document["previousHash"], serde_json::Value::Null);
    assert_eq!(
        verify(&report.statement.signed, known(1)).expect("verified"),
        report.statement.hash
    );
    verify_link(document, None).expect("the first link");

    let events = store.events.lock().expect("events");
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].event_type, EventType::FlightSettlementReportFinalized);
    assert_eq!(events[0].data["statementHash"], report.statement.hash.to_string());
    assert_eq!(events[0].data["ticketCount"], 1_201);
}

#[tokio::test]
async fn the_next_period_chains_after_the_last_statement_and_a_second_finalization_changes_nothing() {
    let store = store_with_tickets(3);
    {
        let mut memory = store.flight.memory();
        let mut november = ticket(99, TicketStatus::Lost);
        november.created_at = datetime!(2026-11-03 00:00 UTC);
        memory.tickets.insert(november.id, november);
    }
    let clock = ManualClock::at(datetime!(2026-12-01 00:05 UTC));
    let office = office_over(1, Arc::new(MemoryKeys::default()), store.clone(), clock);
    office.register_signing_key().await.expect("key");
    let october = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("october"));
    let november = finalized(
        office
            .finalize_report(OPERATOR, datetime!(2026-11-15 00:00 UTC))
            .await
            .expect("november"),
    );
    assert_eq!(november.totals.ticket_count, 1);
    verify_link(
        &november.statement.signed.document,
        Some(&october.statement.signed.document),
    )
    .expect("chained");
    let again = office.finalize_report(OPERATOR, OCTOBER).await.expect("again");
    assert_eq!(again, FinalizeOutcome::AlreadyFinalized(Box::new(october)));
    assert_eq!(store.reports.lock().expect("reports").len(), 2);
}

#[tokio::test]
async fn a_report_that_cannot_be_finalized_says_every_reason() {
    let store = store_with_tickets(2);
    {
        let mut memory = store.flight.memory();
        for (n, status) in [
            (50, TicketStatus::Active),
            (51, TicketStatus::Pending),
            (52, TicketStatus::Review),
        ] {
            let mut open = ticket(n, status);
            open.created_at = datetime!(2026-11-20 00:00 UTC);
            memory.tickets.insert(TicketId::from_u128(n), open);
        }
    }
    let office = office_over(1, Arc::new(MemoryKeys::default()), store.clone(), ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    let refused = office.finalize_report(OPERATOR, NOW).await.expect("answered");
    assert_eq!(
        refused,
        FinalizeOutcome::Refused(vec![
            FinalizationBlocker::PeriodOpen {
                ends_at: datetime!(2026-12-01 00:00 UTC)
            },
            FinalizationBlocker::TicketsUnsettled { count: 2 },
            FinalizationBlocker::TicketsInReview { count: 1 },
        ])
    );
    assert!(store.reports.lock().expect("reports").is_empty());
    assert!(store.events.lock().expect("events").is_empty());
}

#[tokio::test]
async fn an_instance_with_a_retired_key_signs_nothing() {
    let store = store_with_tickets(2);
    let keys = Arc::new(MemoryKeys::default());
    let old = office_over(1, keys.clone(), store.clone(), ManualClock::at(NOW));
    old.register_signing_key().await.expect("key");
    office_over(2, keys, store.clone(), ManualClock::at(NOW))
        .register_signing_key()
        .await
        .expect("new key");
    assert!(old.finalize_report(OPERATOR, OCTOBER).await.is_err());
    assert!(store.reports.lock().expect("reports").is_empty());
}
