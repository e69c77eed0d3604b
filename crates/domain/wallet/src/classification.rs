//! What a wallet answer means (contract rule 4): applied, definitely refused, ambiguous,
//! or never sent. The rule of thumb is conservative: only an answer that proves the
//! outcome is definite; anything that leaves the slightest chance the wallet applied the
//! mutation is ambiguous.
//!
//! | observed | classification |
//! |---|---|
//! | nothing sent (refused before any byte) | `NotSent`: the same key may be sent again |
//! | time-out, connection lost after sending | ambiguous |
//! | 2xx with a whole success body | `Applied` |
//! | 2xx with any other body | ambiguous: the wallet says it succeeded at something |
//! | 429 (any body) | ambiguous: the contract does not promise that a throttled request was not processed, and a proxy in front of the wallet may throttle after forwarding |
//! | 4xx naming a refusal code (`insufficient_funds`, …) | `Rejected` |
//! | 4xx naming `idempotency_key_reused` | `Rejected`, blamed on the platform |
//! | 4xx naming `idempotency_key_in_progress` (409) | ambiguous: an earlier attempt with this key is still being applied, its outcome unknown |
//! | 4xx with an unknown code or an unreadable body | ambiguous: it was refused by something, but not in words that prove nothing moved (a proxy, a new code, a half-applied request) |
//! | 5xx | ambiguous: the wallet may have applied the mutation before failing |
//! | 1xx, 3xx, anything else | ambiguous: outside the contract |

use std::fmt;

use crate::answer_body::{AppliedAnswer, ErrorAnswer};
use crate::refusal::RefusalCode;
use crate::remote_reference::RemoteReference;
use crate::transport::TransportOutcome;

/// The error code of a 409 answer for a key whose first request is still being processed.
pub const IN_PROGRESS_CODE: &str = "idempotency_key_in_progress";
/// The status of that answer.
pub const IN_PROGRESS_STATUS: u16 = 409;

/// What a wallet answer means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Classification {
    /// The wallet applied the mutation.
    Applied {
        /// The wallet's reference, kept for reconciliation.
        remote_reference: RemoteReference,
        /// The player's balance after the mutation, in minor units.
        balance: i64,
    },
    /// The wallet definitely refused the mutation.
    Rejected {
        /// Why.
        code: RefusalCode,
    },
    /// Nobody can tell from here whether the wallet applied the mutation.
    Ambiguous {
        /// What was observed, for the operation's record and the reviewer.
        why: Ambiguity,
    },
    /// The request never left: sending it again with the same key is safe.
    NotSent,
}

/// Why an answer is ambiguous.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ambiguity {
    /// No answer in time.
    TimedOut,
    /// The connection broke after sending.
    ConnectionLostAfterSend,
    /// 409 `idempotency_key_in_progress`: an earlier attempt is still being applied.
    InProgress,
    /// 429: throttled, possibly after processing.
    RateLimited,
    /// A 5xx.
    ServerError {
        /// The status.
        status: u16,
    },
    /// A 2xx whose body is not a whole success body.
    UnreadableSuccess {
        /// The status.
        status: u16,
    },
    /// A 4xx that names no known refusal code.
    UnknownRefusal {
        /// The status.
        status: u16,
        /// The code, if the body had the error shape.
        code: Option<String>,
    },
    /// A status outside the contract (1xx, 3xx, > 599).
    UnexpectedStatus {
        /// The status.
        status: u16,
    },
}

/// Classifies the outcome of one attempt.
pub fn classify(outcome: TransportOutcome<'_>) -> Classification {
    let why = match outcome {
        TransportOutcome::NotSent => return Classification::NotSent,
        TransportOutcome::TimedOut => Ambiguity::TimedOut,
        TransportOutcome::ConnectionLostAfterSend => Ambiguity::ConnectionLostAfterSend,
        TransportOutcome::Answered { status, body } => return classify_answer(status, body),
    };
    Classification::Ambiguous { why }
}

fn classify_answer(status: u16, body: &[u8]) -> Classification {
    let why = match status {
        200..=299 => match AppliedAnswer::read(body) {
            Some((remote_reference, balance)) => {
                return Classification::Applied {
                    remote_reference,
                    balance,
                };
            }
            None => Ambiguity::UnreadableSuccess { status },
        },
        429 => Ambiguity::RateLimited,
        400..=499 => {
            let code = ErrorAnswer::read_code(body);
            match code.as_deref() {
                Some(IN_PROGRESS_CODE) => Ambiguity::InProgress,
                Some(text) => match RefusalCode::from_code(text) {
                    Some(code) => return Classification::Rejected { code },
                    None => Ambiguity::UnknownRefusal { status, code },
                },
                None => Ambiguity::UnknownRefusal { status, code },
            }
        }
        500..=599 => Ambiguity::ServerError { status },
        _ => Ambiguity::UnexpectedStatus { status },
    };
    Classification::Ambiguous { why }
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TimedOut => f.write_str("no answer in time"),
            Self::ConnectionLostAfterSend => f.write_str("connection lost after sending"),
            Self::InProgress => f.write_str("409 idempotency_key_in_progress"),
            Self::RateLimited => f.write_str("429 rate limited"),
            Self::ServerError { status } => write!(f, "server error {status}"),
            Self::UnreadableSuccess { status } => write!(f, "{status} without a readable success body"),
            Self::UnknownRefusal {
                status,
                code: Some(code),
            } => write!(f, "{status} with unknown code `{code}`"),
            Self::UnknownRefusal { status, code: None } => write!(f, "{status} without a readable error body"),
            Self::UnexpectedStatus { status } => write!(f, "unexpected status {status}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const APPLIED: &str = r#"{"status":"applied","remoteReference":"tx-1","balance":"900"}"#;

    fn error(code: &str) -> String {
        format!(r#"{{"error":{{"code":"{code}"}}}}"#)
    }

    fn ambiguous(why: Ambiguity) -> Classification {
        Classification::Ambiguous { why }
    }

    fn rejected(code: RefusalCode) -> Classification {
        Classification::Rejected { code }
    }

    fn answered(status: u16, body: &str) -> Classification {
        classify(TransportOutcome::Answered {
            status,
            body: body.as_bytes(),
        })
    }

    #[test]
    fn transport_failures() {
        assert_eq!(classify(TransportOutcome::NotSent), Classification::NotSent);
        assert_eq!(classify(TransportOutcome::TimedOut), ambiguous(Ambiguity::TimedOut));
        assert_eq!(
            classify(TransportOutcome::ConnectionLostAfterSend),
            ambiguous(Ambiguity::ConnectionLostAfterSend)
        );
    }

    #[test]
    fn every_status_and_body_row() {
        let applied = Classification::Applied {
            remote_reference: RemoteReference::parse("tx-1").unwrap(),
            balance: 900,
        };
        let unknown = |status: u16, code: Option<&str>| {
            ambiguous(Ambiguity::UnknownRefusal {
                status,
                code: code.map(str::to_owned),
            })
        };
        let rows: Vec<(u16, String, Classification)> = vec![
            (200, APPLIED.into(), applied.clone()),
            (201, APPLIED.into(), applied),
            (
                200,
                String::new(),
                ambiguous(Ambiguity::UnreadableSuccess { status: 200 }),
            ),
            (
                200,
                "OK".into(),
                ambiguous(Ambiguity::UnreadableSuccess { status: 200 }),
            ),
            (
                200,
                r#"{"status":"applied","balance":"900"}"#.into(),
                ambiguous(Ambiguity::UnreadableSuccess { status: 200 }),
            ),
            (
                200,
                r#"{"status":"rejected","remoteReference":"tx-1","balance":"900"}"#.into(),
                ambiguous(Ambiguity::UnreadableSuccess { status: 200 }),
            ),
            (
                204,
                String::new(),
                ambiguous(Ambiguity::UnreadableSuccess { status: 204 }),
            ),
            (
                402,
                error("insufficient_funds"),
                rejected(RefusalCode::InsufficientFunds),
            ),
            (404, error("user_not_found"), rejected(RefusalCode::UserNotFound)),
            (403, error("user_blocked"), rejected(RefusalCode::UserBlocked)),
            (422, error("limit_exceeded"), rejected(RefusalCode::LimitExceeded)),
            (422, error("currency_mismatch"), rejected(RefusalCode::CurrencyMismatch)),
            (401, error("invalid_signature"), rejected(RefusalCode::InvalidSignature)),
            (400, error("invalid_request"), rejected(RefusalCode::InvalidRequest)),
            (
                409,
                error("idempotency_key_reused"),
                rejected(RefusalCode::IdempotencyKeyReused),
            ),
            (
                409,
                error("idempotency_key_in_progress"),
                ambiguous(Ambiguity::InProgress),
            ),
            (400, error("brand_new_code"), unknown(400, Some("brand_new_code"))),
            (400, "<html>nginx</html>".into(), unknown(400, None)),
            (404, String::new(), unknown(404, None)),
            (408, String::new(), unknown(408, None)),
            (429, error("insufficient_funds"), ambiguous(Ambiguity::RateLimited)),
            (429, String::new(), ambiguous(Ambiguity::RateLimited)),
            (500, APPLIED.into(), ambiguous(Ambiguity::ServerError { status: 500 })),
            (502, String::new(), ambiguous(Ambiguity::ServerError { status: 502 })),
            (
                503,
                error("insufficient_funds"),
                ambiguous(Ambiguity::ServerError { status: 503 }),
            ),
            (599, String::new(), ambiguous(Ambiguity::ServerError { status: 599 })),
            (
                100,
                String::new(),
                ambiguous(Ambiguity::UnexpectedStatus { status: 100 }),
            ),
            (
                302,
                APPLIED.into(),
                ambiguous(Ambiguity::UnexpectedStatus { status: 302 }),
            ),
            (
                600,
                String::new(),
                ambiguous(Ambiguity::UnexpectedStatus { status: 600 }),
            ),
            (0, String::new(), ambiguous(Ambiguity::UnexpectedStatus { status: 0 })),
        ];
        for (status, body, expected) in rows {
            assert_eq!(answered(status, &body), expected, "{status} {body}");
        }
    }

    /// Rule 4: only an answer that proves the outcome is definite; every 5xx, whatever it says, is not.
    #[test]
    fn no_server_error_is_ever_definite() {
        for status in 500..=599 {
            for body in [APPLIED.to_owned(), error("insufficient_funds"), String::new()] {
                assert!(
                    matches!(answered(status, &body), Classification::Ambiguous { .. }),
                    "{status}"
                );
            }
        }
    }

    #[test]
    fn every_refusal_code_is_definite_under_any_4xx_but_429() {
        for status in (400..=499).filter(|s| *s != 429) {
            for code in RefusalCode::ALL {
                assert_eq!(answered(status, &error(code.as_str())), rejected(code), "{status}");
            }
        }
    }

    #[test]
    fn ambiguities_read_well_in_logs() {
        assert_eq!(
            Ambiguity::UnknownRefusal {
                status: 400,
                code: Some("x".into())
            }
            .to_string(),
            "400 with unknown code `x`"
        );
        assert_eq!(Ambiguity::ServerError { status: 503 }.to_string(), "server error 503");
    }
}
