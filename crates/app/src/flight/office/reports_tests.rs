//! Reading reports: open ones computed from the tickets with their blockers, finalized
//! ones as stored, newest period first in keyset pages, addressed by id or period, and
//! the export's lines hashing to the statement's `linesSha256`.

use std::sync::Arc;

use opinion_core::{OperatorId, PageLimit, PageRequest, SettlementReportId};
use opinion_flight::{FinalizationBlocker, TicketStatus};
use time::macros::datetime;

use crate::error::{AppError, ProblemCode};
use crate::flight::office::finalize_tests::{OCTOBER, finalized, store_with_tickets};
use crate::flight::office::lines_csv::LinesHasher;
use crate::flight::office::{FlightOffice, ReportAddress};
use crate::test_support::flight::ManualClock;
use crate::test_support::flight_reads::ticket;
use crate::test_support::office::{MemoryKeys, MemoryOffice, office_over};
use crate::test_support::{NOW, OPERATOR};

const NOVEMBER: time::OffsetDateTime = datetime!(2026-11-01 00:00 UTC);

/// 31 October tickets and one November ticket still flying.
async fn office_with_two_periods() -> (FlightOffice, Arc<MemoryOffice>) {
    let store = store_with_tickets(31);
    {
        let mut memory = store.flight.memory();
        let mut flying = ticket(99, TicketStatus::Active);
        flying.created_at = datetime!(2026-11-03 00:00 UTC);
        memory.tickets.insert(flying.id, flying);
    }
    let office = office_over(1, Arc::new(MemoryKeys::default()), store.clone(), ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    (office, store)
}

fn page(limit: u32) -> PageRequest<opinion_core::SettlementReportKind> {
    PageRequest {
        limit: PageLimit::new(limit).expect("limit"),
        after: None,
    }
}

#[tokio::test]
async fn open_reports_are_computed_from_the_tickets_with_every_blocker_newest_first() {
    let (office, store) = office_with_two_periods().await;
    let listed = office.list_reports(OPERATOR, page(50)).await.expect("listed");
    assert!(!listed.has_more());
    let starts: Vec<_> = listed.items.iter().map(|report| report.period_start).collect();
    assert_eq!(starts, [NOVEMBER, OCTOBER]);
    let november = &listed.items[0];
    assert!(november.finalized.is_none());
    assert_eq!(
        november.blockers,
        [
            FinalizationBlocker::PeriodOpen {
                ends_at: datetime!(2026-12-01 00:00 UTC)
            },
            FinalizationBlocker::TicketsUnsettled { count: 1 },
        ]
    );
    assert_eq!(november.totals.ticket_count, 0, "a flying ticket is no line yet");
    let october = &listed.items[1];
    assert!(october.blockers.is_empty(), "ended and settled: ready to finalize");
    assert_eq!(october.totals.ticket_count, 31);
    assert_eq!(october.due_date.map(|d| d.to_string()).as_deref(), Some("2026-11-16"));
    assert!(
        store.reports.lock().expect("reports").is_empty(),
        "an open report is never stored"
    );

    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    assert_eq!(
        report.totals, october.totals,
        "the open report is what finalization signs"
    );
    let listed = office.list_reports(OPERATOR, page(50)).await.expect("listed");
    assert_eq!(listed.items[1].finalized.as_ref(), Some(&report));
    assert!(listed.items[1].blockers.is_empty());
}

#[tokio::test]
async fn pages_walk_the_periods_by_cursor() {
    let (office, _) = office_with_two_periods().await;
    let first = office.list_reports(OPERATOR, page(1)).await.expect("first");
    assert_eq!(first.items.len(), 1);
    assert_eq!(first.items[0].period_start, NOVEMBER);
    let second = office
        .list_reports(
            OPERATOR,
            PageRequest {
                limit: PageLimit::new(1).expect("limit"),
                after: first.next,
            },
        )
        .await
        .expect("second");
    assert_eq!(second.items.len(), 1);
    assert_eq!(second.items[0].period_start, OCTOBER);
    assert!(!second.has_more());
    let other = office
        .list_reports(OperatorId::from_u128(77), page(50))
        .await
        .expect("other");
    assert!(other.items.is_empty(), "another operator sees none of these");
}

#[tokio::test]
async fn a_report_is_addressed_by_period_or_by_id_and_nothing_of_another_operator_is_found() {
    let (office, _) = office_with_two_periods().await;
    let open = office
        .report(OPERATOR, ReportAddress::Period(OCTOBER))
        .await
        .expect("open");
    assert!(open.finalized.is_none());
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    let by_period = office
        .report(OPERATOR, ReportAddress::Period(OCTOBER))
        .await
        .expect("by period");
    let by_id = office
        .report(OPERATOR, ReportAddress::Id(report.id))
        .await
        .expect("by id");
    assert_eq!(by_period, by_id);
    assert_eq!(by_id.finalized, Some(report.clone()));
    for (operator, address) in [
        (OperatorId::from_u128(77), ReportAddress::Id(report.id)),
        (OPERATOR, ReportAddress::Id(SettlementReportId::from_u128(5))),
        (OPERATOR, ReportAddress::Period(datetime!(2026-12-01 00:00 UTC))),
    ] {
        assert!(
            matches!(office.report(operator, address).await, Err(AppError::NotFound(_))),
            "{address:?}"
        );
    }
}

#[tokio::test]
async fn the_export_hands_out_the_lines_the_statement_hashed_and_refuses_an_open_report() {
    let store = store_with_tickets(1_201);
    let office = office_over(1, Arc::new(MemoryKeys::default()), store, ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    let refused = office
        .export_report(OPERATOR, ReportAddress::Period(OCTOBER))
        .await
        .err();
    assert!(
        matches!(
            refused,
            Some(AppError::Conflict {
                code: ProblemCode::ReportNotFinalized,
                ..
            })
        ),
        "{refused:?}"
    );
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    let (exported, mut lines) = office
        .export_report(OPERATOR, ReportAddress::Id(report.id))
        .await
        .expect("export");
    assert_eq!(exported, report);
    let mut hasher = LinesHasher::new();
    let mut count = 0;
    while let Some(chunk) = lines.next_chunk().await.expect("chunk") {
        count += chunk.len();
        chunk.iter().for_each(|record| hasher.add(record));
    }
    assert_eq!(count, 1_201);
    assert_eq!(hasher.finish(), report.lines_sha256);
}
