//! When a period's settlement report may become a signed statement: once the period has
//! ended and every ticket bought in it has settled. A report that cannot be finalized
//! says every reason at once (a ticket in manual review is named apart from tickets
//! still flying or waiting for their debit, because only staff can move it).

use time::{Date, Duration, OffsetDateTime};

/// Why a report cannot be finalized yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalizationBlocker {
    /// The period has not ended.
    PeriodOpen {
        /// When it ends.
        ends_at: OffsetDateTime,
    },
    /// Tickets of the period are still pending or flying.
    TicketsUnsettled {
        /// How many.
        count: u64,
    },
    /// Tickets of the period wait for manual review of their debit.
    TicketsInReview {
        /// How many.
        count: u64,
    },
}

impl FinalizationBlocker {
    /// The stable code of the blocker.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::PeriodOpen { .. } => "period_open",
            Self::TicketsUnsettled { .. } => "tickets_unsettled",
            Self::TicketsInReview { .. } => "tickets_in_review",
        }
    }
}

/// What the report's period looks like now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeriodState {
    /// The period's end (excluded).
    pub ends_at: OffsetDateTime,
    /// Tickets bought in it that are pending or active.
    pub unsettled: u64,
    /// Tickets bought in it in review.
    pub in_review: u64,
}

/// Every reason the report of `period` cannot be finalized at `now`; empty when it can.
pub fn finalization_blockers(period: PeriodState, now: OffsetDateTime) -> Vec<FinalizationBlocker> {
    let mut blockers = Vec::new();
    if now < period.ends_at {
        blockers.push(FinalizationBlocker::PeriodOpen {
            ends_at: period.ends_at,
        });
    }
    if period.unsettled > 0 {
        blockers.push(FinalizationBlocker::TicketsUnsettled {
            count: period.unsettled,
        });
    }
    if period.in_review > 0 {
        blockers.push(FinalizationBlocker::TicketsInReview {
            count: period.in_review,
        });
    }
    blockers
}

/// The day a report's amount is due: `payment_due_days` after the period's end (UTC).
pub fn due_date(period_end: OffsetDateTime, payment_due_days: u16) -> Date {
    let end = period_end.to_offset(time::UtcOffset::UTC).date();
    end.checked_add(Duration::days(i64::from(payment_due_days)))
        .unwrap_or(Date::MAX)
}

#[cfg(test)]
mod tests {
    use time::macros::{date, datetime};

    use super::*;

    const END: OffsetDateTime = datetime!(2026-11-01 00:00 UTC);

    fn period(unsettled: u64, in_review: u64) -> PeriodState {
        PeriodState {
            ends_at: END,
            unsettled,
            in_review,
        }
    }

    #[test]
    fn an_ended_period_with_every_ticket_settled_can_be_finalized() {
        assert_eq!(finalization_blockers(period(0, 0), END), []);
    }

    #[test]
    fn every_blocker_is_listed_at_once() {
        let blockers = finalization_blockers(period(3, 1), END - Duration::seconds(1));
        assert_eq!(
            blockers,
            [
                FinalizationBlocker::PeriodOpen { ends_at: END },
                FinalizationBlocker::TicketsUnsettled { count: 3 },
                FinalizationBlocker::TicketsInReview { count: 1 },
            ]
        );
        let codes: Vec<_> = blockers.iter().map(FinalizationBlocker::code).collect();
        assert_eq!(codes, ["period_open", "tickets_unsettled", "tickets_in_review"]);
    }

    #[test]
    fn a_review_alone_blocks_an_ended_period() {
        assert_eq!(
            finalization_blockers(period(0, 2), END + Duration::days(3)),
            [FinalizationBlocker::TicketsInReview { count: 2 }]
        );
    }

    #[test]
    fn the_due_date_counts_days_from_the_periods_end() {
        assert_eq!(due_date(END, 15), date!(2026 - 11 - 16));
        assert_eq!(due_date(END, 0), date!(2026 - 11 - 01));
        assert_eq!(due_date(datetime!(2026-12-31 23:00 -02:00), 1), date!(2027 - 01 - 02));
    }
}
