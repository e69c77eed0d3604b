//! Settlement periods: the stretches of time a settlement report covers. For now a
//! calendar month in UTC, half-open: from 00:00 UTC on the 1st to 00:00 UTC on the 1st
//! of the next month. Terms change only on a period's boundary, so a period never mixes
//! two versions of the terms by accident of scheduling.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};
use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, UtcOffset};

/// How settlement periods are cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, SerializeDisplay, DeserializeFromStr)]
pub enum SettlementPeriod {
    /// A calendar month, UTC.
    #[default]
    CalendarMonth,
}

/// Text that names no settlement period.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a settlement period")]
pub struct UnknownSettlementPeriod(pub String);

/// Midnight UTC on the 1st of `month` of `year`, if the year is representable.
fn month_start(year: i32, month: Month) -> Option<OffsetDateTime> {
    Date::from_calendar_date(year, month, 1)
        .ok()
        .map(|date| date.midnight().assume_utc())
}

impl SettlementPeriod {
    /// Every kind of period.
    pub const ALL: [Self; 1] = [Self::CalendarMonth];

    /// The wire and storage name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::CalendarMonth => "calendar_month",
        }
    }

    /// The period containing `instant`: its start (included) and end (excluded), in UTC.
    /// The last period of the representable calendar ends at its last instant.
    pub fn period_containing(self, instant: OffsetDateTime) -> (OffsetDateTime, OffsetDateTime) {
        match self {
            Self::CalendarMonth => {
                let utc = instant.to_offset(UtcOffset::UTC);
                // The 1st of a month that `instant` lies in always exists.
                let start = month_start(utc.year(), utc.month()).unwrap_or(utc);
                let next_year = if utc.month() == Month::December {
                    utc.year().saturating_add(1)
                } else {
                    utc.year()
                };
                let end =
                    month_start(next_year, utc.month().next()).unwrap_or_else(|| PrimitiveDateTime::MAX.assume_utc());
                (start, end)
            }
        }
    }

    /// Whether `instant` is where a period starts (and the previous one ends).
    pub fn is_boundary(self, instant: OffsetDateTime) -> bool {
        self.period_containing(instant).0 == instant
    }

    /// The short name of the period starting at `start`, as reports are addressed by it:
    /// `2026-10` for a calendar month.
    pub fn label(self, start: OffsetDateTime) -> String {
        match self {
            Self::CalendarMonth => {
                let utc = start.to_offset(UtcOffset::UTC);
                format!("{:04}-{:02}", utc.year(), u8::from(utc.month()))
            }
        }
    }

    /// The start of the period a label names (`YYYY-MM`, four digits and two).
    pub fn parse_label(self, label: &str) -> Result<OffsetDateTime, PeriodLabelError> {
        let bad = || PeriodLabelError(label.to_owned());
        match self {
            Self::CalendarMonth => {
                let (year, month) = label.split_once('-').ok_or_else(bad)?;
                let digits = |text: &str, len: usize| text.len() == len && text.bytes().all(|b| b.is_ascii_digit());
                if !digits(year, 4) || !digits(month, 2) {
                    return Err(bad());
                }
                let year: i32 = year.parse().map_err(|_| bad())?;
                let month = month
                    .parse::<u8>()
                    .ok()
                    .and_then(|m| Month::try_from(m).ok())
                    .ok_or_else(bad)?;
                month_start(year, month).ok_or_else(bad)
            }
        }
    }
}

/// Text that is not a period's label.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a calendar month written YYYY-MM")]
pub struct PeriodLabelError(pub String);

impl fmt::Display for SettlementPeriod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SettlementPeriod {
    type Err = UnknownSettlementPeriod;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|period| period.as_str() == text)
            .ok_or_else(|| UnknownSettlementPeriod(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use time::Duration;
    use time::macros::datetime;

    use super::*;

    const MONTH: SettlementPeriod = SettlementPeriod::CalendarMonth;

    #[test]
    fn a_label_is_the_year_and_month() {
        assert_eq!(MONTH.label(datetime!(2026-10-01 00:00 UTC)), "2026-10");
        assert_eq!(MONTH.parse_label("2026-10"), Ok(datetime!(2026-10-01 00:00 UTC)));
        for bad in [
            "2026-13",
            "2026-1",
            "26-10",
            "2026-10-01",
            "2026/10",
            "",
            "+026-10",
            "2026-00",
        ] {
            assert!(MONTH.parse_label(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_calendar_month_in_utc() {
        assert_eq!(
            MONTH.period_containing(datetime!(2026-11-24 08:00:00 UTC)),
            (datetime!(2026-11-01 00:00 UTC), datetime!(2026-12-01 00:00 UTC))
        );
        assert_eq!(
            MONTH.period_containing(datetime!(2026-12-31 23:59:59.999999999 UTC)),
            (datetime!(2026-12-01 00:00 UTC), datetime!(2027-01-01 00:00 UTC))
        );
        assert_eq!(
            MONTH.period_containing(datetime!(2028-02-29 12:00 UTC)),
            (datetime!(2028-02-01 00:00 UTC), datetime!(2028-03-01 00:00 UTC))
        );
    }

    #[test]
    fn an_offset_instant_counts_in_utc() {
        // 1 December 06:00 in Jakarta is still 30 November in UTC.
        assert_eq!(
            MONTH.period_containing(datetime!(2026-12-01 06:00 +07:00)).0,
            datetime!(2026-11-01 00:00 UTC)
        );
        assert!(MONTH.is_boundary(datetime!(2026-12-01 07:00 +07:00)));
        assert!(!MONTH.is_boundary(datetime!(2026-12-01 00:00 +07:00)));
    }

    #[test]
    fn boundaries_are_the_first_instant_of_a_month() {
        assert!(MONTH.is_boundary(datetime!(2027-01-01 00:00 UTC)));
        assert!(!MONTH.is_boundary(datetime!(2027-01-01 00:00:00.000000001 UTC)));
        assert!(!MONTH.is_boundary(datetime!(2026-12-31 23:59:59.999999999 UTC)));
        assert!(!MONTH.is_boundary(datetime!(2027-01-02 00:00 UTC)));
    }

    #[test]
    fn the_last_representable_month_ends_at_the_end_of_time() {
        let end = PrimitiveDateTime::MAX.assume_utc();
        assert_eq!(
            MONTH.period_containing(datetime!(9999-12-15 00:00 UTC)),
            (datetime!(9999-12-01 00:00 UTC), end)
        );
    }

    #[test]
    fn names_read_back() {
        assert_eq!(MONTH.as_str(), "calendar_month");
        assert_eq!("calendar_month".parse(), Ok(MONTH));
        assert_eq!(SettlementPeriod::default(), MONTH);
        assert!("month".parse::<SettlementPeriod>().is_err());
        assert_eq!(
            serde_json::to_string(&MONTH).ok().as_deref(),
            Some("\"calendar_month\"")
        );
    }

    proptest! {
        #[test]
        fn a_label_names_its_period_and_reads_back(instant in any::<i64>().prop_map(|s| s.rem_euclid(4_000_000_000))) {
            let instant = OffsetDateTime::from_unix_timestamp(instant).expect("in range");
            let (start, _) = MONTH.period_containing(instant);
            prop_assert_eq!(MONTH.parse_label(&MONTH.label(start)), Ok(start));
        }

        #[test]
        fn periods_tile_time(seconds in 0i64..4_000_000_000, nanos in 0i64..1_000_000_000) {
            let instant = OffsetDateTime::UNIX_EPOCH + Duration::seconds(seconds) + Duration::nanoseconds(nanos);
            let (start, end) = MONTH.period_containing(instant);
            prop_assert!(start <= instant && instant < end);
            prop_assert!(MONTH.is_boundary(start) && MONTH.is_boundary(end));
            prop_assert_eq!(MONTH.period_containing(end).0, end);
            prop_assert_eq!(MONTH.period_containing(start - Duration::nanoseconds(1)).1, start);
        }
    }
}
