//! The `requestedAt` of a call: RFC 3339 in UTC with milliseconds, e.g.
//! `2026-11-22T10:15:30.123Z`, one fixed width so wallet logs sort and compare as text.

use opinion_webhook::{CreatedAt, CreatedAtError};
use time::{OffsetDateTime, UtcOffset};

/// `now` written as a `requestedAt`.
pub(crate) fn requested_at(now: OffsetDateTime) -> Result<CreatedAt, CreatedAtError> {
    let utc = now.to_offset(UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        utc.year(),
        u8::from(utc.month()),
        utc.day(),
        utc.hour(),
        utc.minute(),
        utc.second(),
        utc.millisecond()
    )
    .parse()
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn writes_utc_with_milliseconds() {
        let written = requested_at(datetime!(2026-11-22 12:15:30.123456 +02:00)).map(|at| at.to_string());
        assert_eq!(written, Ok("2026-11-22T10:15:30.123Z".to_owned()));
        let written = requested_at(datetime!(2026-01-02 03:04:05 UTC)).map(|at| at.to_string());
        assert_eq!(written, Ok("2026-01-02T03:04:05.000Z".to_owned()));
    }
}
