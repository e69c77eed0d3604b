//! Reading a `Retry-After` header: delta-seconds or an HTTP date. Bounds are the
//! domain's (`delay_with_retry_after`); this only turns the header into seconds.

use std::time::SystemTime;

/// Seconds from `now` that `value` asks to wait; `None` if it is neither form.
pub(crate) fn retry_after_secs(value: &str, now: SystemTime) -> Option<u64> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return Some(value.parse().unwrap_or(u64::MAX));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).map(|wait| wait.as_secs()).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn both_forms_are_read_and_garbage_is_not() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
        assert_eq!(retry_after_secs("120", now), Some(120));
        assert_eq!(retry_after_secs(" 0 ", now), Some(0));
        assert_eq!(retry_after_secs("99999999999999999999999", now), Some(u64::MAX));
        assert_eq!(retry_after_secs("Wed, 21 Oct 2015 07:30:00 GMT", now), Some(120));
        assert_eq!(retry_after_secs("Wed, 21 Oct 2015 07:00:00 GMT", now), Some(0));
        for garbage in ["", "-5", "1.5", "soon", "Wed, 21 Oct 2015"] {
            assert_eq!(retry_after_secs(garbage, now), None, "{garbage}");
        }
    }
}
