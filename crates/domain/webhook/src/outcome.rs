//! What one delivery attempt's result means, and when an endpoint that keeps failing is
//! disabled. Redirects are not followed (a redirect could point the signed body at an
//! address the registration checks never saw), so a 3xx is a failure.
//!
//! | result | outcome | why |
//! |---|---|---|
//! | 2xx | `Delivered` | the receiver took it |
//! | 410 Gone | `DisableEndpoint` | the receiver says the endpoint is gone for good |
//! | timeout | `Retry` | the receiver may have been briefly slow or down |
//! | connection error (DNS, TCP, TLS, refused address) | `Retry` | usually transient |
//! | 1xx, 3xx | `Retry` | not an answer; redirects are not followed |
//! | 408, 429 | `Retry` | the receiver asks to come back later (honour `Retry-After`) |
//! | other 4xx | `Retry` | often a receiver's misconfiguration the operator fixes within the window |
//! | 5xx | `Retry` | the receiver failed |
//! | any other code | `Retry` | not valid HTTP; treated as a failure |

/// What the transport saw for one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptResult {
    /// No complete answer within the attempt's time limit.
    Timeout,
    /// The connection could not be made or broke before an answer (including an address
    /// refused by the outbound address check).
    ConnectionError,
    /// The receiver answered with this HTTP status.
    Status(u16),
}

/// What the delivery does next after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// Done; no more attempts.
    Delivered,
    /// Failed; try again per the retry schedule, if attempts remain.
    Retry,
    /// Failed, and the endpoint is disabled now (and `mini_app.webhook_endpoint.disabled` emitted).
    DisableEndpoint,
}

/// Classifies one attempt per the table in this file.
pub const fn classify_attempt(result: AttemptResult) -> AttemptOutcome {
    match result {
        AttemptResult::Status(200..=299) => AttemptOutcome::Delivered,
        AttemptResult::Status(410) => AttemptOutcome::DisableEndpoint,
        AttemptResult::Status(_) | AttemptResult::Timeout | AttemptResult::ConnectionError => AttemptOutcome::Retry,
    }
}

/// How long an endpoint must have been failing without a single success before it is
/// disabled: five days, longer than one delivery's three-day retry window, so only an
/// endpoint that stayed broken across several events' windows is switched off.
pub const DISABLE_AFTER_FAILING_SECS: i64 = 5 * 86_400;

/// Whether an endpoint is disabled, given the unix time in seconds of the first failed
/// attempt of its current failure streak (any success ends a streak) and now. A clock
/// that went backwards never disables.
pub const fn should_disable(failing_since_secs: i64, now_secs: i64) -> bool {
    now_secs.saturating_sub(failing_since_secs) >= DISABLE_AFTER_FAILING_SECS
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttemptOutcome::{Delivered, DisableEndpoint, Retry};
    use AttemptResult::{ConnectionError, Status, Timeout};

    #[test]
    fn classification_table() {
        let table = [
            (Status(200), Delivered),
            (Status(201), Delivered),
            (Status(204), Delivered),
            (Status(299), Delivered),
            (Status(410), DisableEndpoint),
            (Timeout, Retry),
            (ConnectionError, Retry),
            (Status(100), Retry),
            (Status(199), Retry),
            (Status(300), Retry),
            (Status(301), Retry),
            (Status(302), Retry),
            (Status(307), Retry),
            (Status(308), Retry),
            (Status(400), Retry),
            (Status(401), Retry),
            (Status(403), Retry),
            (Status(404), Retry),
            (Status(408), Retry),
            (Status(409), Retry),
            (Status(411), Retry),
            (Status(413), Retry),
            (Status(429), Retry),
            (Status(500), Retry),
            (Status(502), Retry),
            (Status(503), Retry),
            (Status(504), Retry),
            (Status(599), Retry),
            (Status(0), Retry),
            (Status(600), Retry),
            (Status(u16::MAX), Retry),
        ];
        for (result, outcome) in table {
            assert_eq!(classify_attempt(result), outcome, "{result:?}");
        }
    }

    #[test]
    fn disables_after_five_days_of_failing() {
        let start = 1_795_000_000;
        assert!(!should_disable(start, start));
        assert!(!should_disable(start, start + 3 * 86_400));
        assert!(!should_disable(start, start + DISABLE_AFTER_FAILING_SECS - 1));
        assert!(should_disable(start, start + DISABLE_AFTER_FAILING_SECS));
        assert!(should_disable(start, start + 30 * 86_400));
        assert!(!should_disable(start, start - 10 * 86_400));
        assert!(should_disable(i64::MIN, i64::MAX));
    }
}
