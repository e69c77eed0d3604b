//! The settlement as the overview shows it: the running period's report so far and what
//! remains due on finalized reports, until corrections or payments settle it.

use std::sync::Arc;

use opinion_flight::{PaymentDirection, Rupiah, TicketStatus};
use time::Duration;
use time::macros::datetime;

use crate::flight::office::finalize_tests::{OCTOBER, finalized, store_with_tickets};
use crate::flight::office::{CorrectionRequest, ReportAddress};
use crate::test_support::flight::ManualClock;
use crate::test_support::flight_reads::ticket;
use crate::test_support::office::{MemoryKeys, office_over};
use crate::test_support::{NOW, OPERATOR};

const NOVEMBER: time::OffsetDateTime = datetime!(2026-11-01 00:00 UTC);

#[tokio::test]
async fn the_running_period_counts_so_far_and_a_finalized_report_stays_outstanding_until_settled() {
    let store = store_with_tickets(3);
    let mut lost = ticket(100, TicketStatus::Lost);
    lost.created_at = NOW - Duration::hours(1);
    store.flight.memory().tickets.insert(lost.id, lost);
    let office = office_over(1, Arc::new(MemoryKeys::default()), store.clone(), ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    let october = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));

    let standing = office.settlement_standing(OPERATOR).await.expect("standing");
    assert_eq!(standing.current.period_start, NOVEMBER);
    assert!(standing.current.finalized.is_none(), "the running period is open");
    assert_eq!(standing.current.totals.ticket_count, 1);
    let november = office
        .report(OPERATOR, ReportAddress::Period(NOVEMBER))
        .await
        .expect("november");
    assert_eq!(
        standing.current.totals, november.totals,
        "the open report's own figures"
    );
    assert_eq!(standing.outstanding.len(), 1);
    let outstanding = &standing.outstanding[0];
    assert_eq!(outstanding.report_id, october.id);
    assert_eq!(outstanding.period_start, OCTOBER);
    assert_eq!(outstanding.due_date, october.due_date);
    assert_eq!(outstanding.remaining_due, Rupiah::new(2_190).expect("idr"));
    assert_eq!(outstanding.direction, PaymentDirection::PlatformToOperator);

    office
        .issue_correction(CorrectionRequest {
            operator: OPERATOR,
            report: ReportAddress::Id(october.id),
            amount_change: 2_190,
            reason: "settled outside the platform".into(),
            by: "Ana".into(),
        })
        .await
        .expect("corrected");
    let settled = office.settlement_standing(OPERATOR).await.expect("standing");
    assert!(settled.outstanding.is_empty(), "nothing remains due: {settled:?}");
}
