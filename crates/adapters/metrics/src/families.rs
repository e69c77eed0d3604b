//! The label values the metrics use: a small closed set each, so a series never
//! multiplies with what callers send.

use opinion_app::wallet::ports::ProbeObserved;
use opinion_wallet::{BalanceReading, Classification};
use opinion_webhook::AttemptResult;

/// The outcome label of a wallet mutation.
pub(crate) fn mutation_outcome(classification: &Classification) -> &'static str {
    match classification {
        Classification::Applied { .. } => "applied",
        Classification::Rejected { .. } => "rejected",
        Classification::Ambiguous { .. } => "ambiguous",
        Classification::NotSent => "not_sent",
    }
}

/// The outcome label of a balance read.
pub(crate) fn balance_outcome(reading: &BalanceReading) -> &'static str {
    match reading {
        BalanceReading::Balance { .. } => "read",
        BalanceReading::Refused { .. } => "refused",
        BalanceReading::Failed { .. } => "failed",
    }
}

/// The outcome label of a wallet test probe.
pub(crate) fn probe_outcome(observed: &ProbeObserved) -> &'static str {
    match observed {
        ProbeObserved::NotSent => "not_sent",
        ProbeObserved::TimedOut => "timed_out",
        ProbeObserved::LostAfterSend => "lost_after_send",
        ProbeObserved::Answered { .. } => "answered",
    }
}

/// The result label of a webhook attempt: `2xx` (delivered), another status class, or
/// why there was no answer.
pub(crate) fn attempt_result(result: &AttemptResult) -> &'static str {
    match result {
        AttemptResult::Timeout => "timeout",
        AttemptResult::ConnectionError => "connection_error",
        AttemptResult::Status(status) => match status / 100 {
            2 => "2xx",
            3 => "3xx",
            4 => "4xx",
            5 => "5xx",
            _ => "other_status",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_is_labelled_by_its_class() {
        assert_eq!(attempt_result(&AttemptResult::Status(204)), "2xx");
        assert_eq!(attempt_result(&AttemptResult::Status(429)), "4xx");
        assert_eq!(attempt_result(&AttemptResult::Status(503)), "5xx");
        assert_eq!(attempt_result(&AttemptResult::Status(101)), "other_status");
        assert_eq!(attempt_result(&AttemptResult::Timeout), "timeout");
    }
}
