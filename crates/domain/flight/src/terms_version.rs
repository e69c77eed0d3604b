//! Versioned terms. One version is in force at any instant: the one with the latest
//! `effective_from` not after it. New versions are scheduled only in the future and on a
//! settlement period boundary, so a version in force at an instant stays the one in
//! force at that instant whatever is scheduled later: a ticket's frozen share is never
//! repriced, and a period is never cut by a change of terms.

use opinion_core::FlightTermsId;
use time::OffsetDateTime;

use crate::period::SettlementPeriod;
use crate::terms::Terms;

/// A version of an operator's terms and when it takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermsVersion {
    /// The version's id.
    pub id: FlightTermsId,
    /// The instant from which it is in force (a period boundary, UTC).
    pub effective_from: OffsetDateTime,
    /// Its terms.
    pub terms: Terms,
}

/// Why a version cannot be scheduled to take effect at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleRefusal {
    /// The instant is not in the future.
    #[error("terms take effect in the future only; {effective_from} is not after now")]
    NotInFuture {
        /// The refused instant.
        effective_from: OffsetDateTime,
    },
    /// The instant is not the start of a settlement period.
    #[error(
        "terms take effect at the start of a settlement period (00:00 UTC on the 1st of a month), not {effective_from}"
    )]
    NotOnPeriodBoundary {
        /// The refused instant.
        effective_from: OffsetDateTime,
    },
}

impl ScheduleRefusal {
    /// A stable snake_case code for the broken rule.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::NotInFuture { .. } => "effective_from_not_in_future",
            Self::NotOnPeriodBoundary { .. } => "effective_from_not_on_period_boundary",
        }
    }
}

/// The version in force at `instant`: the latest `effective_from` not after it (of two
/// with the same instant, the one with the greater id, the later created). The versions
/// need not be sorted; `None` before the first takes effect.
pub fn in_force_at(versions: &[TermsVersion], instant: OffsetDateTime) -> Option<&TermsVersion> {
    versions
        .iter()
        .filter(|version| version.effective_from <= instant)
        .max_by_key(|version| (version.effective_from, version.id))
}

/// Whether a version may be scheduled to take effect at `effective_from`, decided at
/// `now`: strictly in the future and on a settlement period boundary (calendar months
/// UTC, the only period there is).
pub fn check_schedule(effective_from: OffsetDateTime, now: OffsetDateTime) -> Result<(), ScheduleRefusal> {
    if effective_from <= now {
        return Err(ScheduleRefusal::NotInFuture { effective_from });
    }
    if !SettlementPeriod::CalendarMonth.is_boundary(effective_from) {
        return Err(ScheduleRefusal::NotOnPeriodBoundary { effective_from });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use time::Duration;
    use time::macros::datetime;

    use super::*;
    use crate::rupiah::Rupiah;
    use crate::share_bps::ShareBps;
    use crate::ticket_rules::TicketLimits;

    fn terms(bps: u16) -> Terms {
        let idr = |rupiah| Rupiah::new(rupiah).unwrap_or_else(|e| panic!("{e}"));
        let limits =
            TicketLimits::new(idr(1_000), idr(1_000_000), idr(50_000_000), 2).unwrap_or_else(|e| panic!("{e}"));
        let share = ShareBps::new(bps).unwrap_or_else(|e| panic!("{e}"));
        Terms::new(share, limits, SettlementPeriod::CalendarMonth, 14).unwrap_or_else(|e| panic!("{e}"))
    }

    fn version(id: u128, effective_from: OffsetDateTime) -> TermsVersion {
        TermsVersion {
            id: FlightTermsId::from_u128(id),
            effective_from,
            terms: terms(1_000),
        }
    }

    fn at(seconds: i64) -> OffsetDateTime {
        datetime!(2026-01-01 00:00 UTC) + Duration::seconds(seconds)
    }

    #[test]
    fn the_latest_version_not_after_the_instant() {
        let versions = [
            version(3, datetime!(2027-01-01 00:00 UTC)),
            version(1, datetime!(2026-11-01 00:00 UTC)),
            version(2, datetime!(2026-12-01 00:00 UTC)),
        ];
        let id_at = |instant| in_force_at(&versions, instant).map(|v| v.id.as_u128());
        assert_eq!(id_at(datetime!(2026-10-31 23:59:59 UTC)), None);
        assert_eq!(id_at(datetime!(2026-11-01 00:00 UTC)), Some(1));
        assert_eq!(id_at(datetime!(2026-11-30 23:59:59.999 UTC)), Some(1));
        assert_eq!(id_at(datetime!(2026-12-01 00:00 UTC)), Some(2));
        assert_eq!(id_at(datetime!(2030-01-01 00:00 UTC)), Some(3));
    }

    #[test]
    fn of_two_at_the_same_instant_the_later_created() {
        let same = datetime!(2026-11-01 00:00 UTC);
        let versions = [version(5, same), version(9, same), version(7, same)];
        assert_eq!(in_force_at(&versions, same).map(|v| v.id.as_u128()), Some(9));
    }

    #[test]
    fn scheduling_is_future_and_on_a_boundary() {
        let now = datetime!(2026-11-24 08:00 UTC);
        assert_eq!(check_schedule(datetime!(2026-12-01 00:00 UTC), now), Ok(()));
        assert_eq!(check_schedule(datetime!(2027-06-01 07:00 +07:00), now), Ok(()));
        let past = datetime!(2026-11-01 00:00 UTC);
        assert_eq!(
            check_schedule(past, now),
            Err(ScheduleRefusal::NotInFuture { effective_from: past })
        );
        assert_eq!(
            check_schedule(now, now).map_err(|e| e.code()),
            Err("effective_from_not_in_future")
        );
        let mid_month = datetime!(2026-12-15 00:00 UTC);
        let refused = check_schedule(mid_month, now);
        assert_eq!(
            refused,
            Err(ScheduleRefusal::NotOnPeriodBoundary {
                effective_from: mid_month
            })
        );
        assert_eq!(
            refused.map_err(|e| e.code()),
            Err("effective_from_not_on_period_boundary")
        );
    }

    fn versions() -> impl Strategy<Value = Vec<TermsVersion>> {
        proptest::collection::vec((any::<u128>(), 0i64..100_000_000), 0..8)
            .prop_map(|pairs| pairs.into_iter().map(|(id, s)| version(id, at(s))).collect())
    }

    proptest! {
        #[test]
        fn versions_effective_later_never_reprice_an_earlier_instant(
            existing in versions(),
            later in proptest::collection::vec((any::<u128>(), 1i64..100_000_000), 0..8),
            t1 in 0i64..100_000_000,
        ) {
            let before = in_force_at(&existing, at(t1)).copied();
            let mut all = existing.clone();
            all.extend(later.into_iter().map(|(id, delta)| version(id, at(t1 + delta))));
            prop_assert_eq!(in_force_at(&all, at(t1)).copied(), before);
        }

        #[test]
        fn the_version_in_force_only_moves_forward(
            existing in versions(), t1 in 0i64..100_000_000, gap in 0i64..100_000_000,
        ) {
            let first = in_force_at(&existing, at(t1)).map(|v| v.effective_from);
            let second = in_force_at(&existing, at(t1 + gap)).map(|v| v.effective_from);
            prop_assert!(first <= second);
        }

        #[test]
        fn order_does_not_matter(mut existing in versions(), t in 0i64..100_000_000) {
            let forward = in_force_at(&existing, at(t)).copied();
            existing.reverse();
            prop_assert_eq!(in_force_at(&existing, at(t)).copied(), forward);
        }
    }
}
