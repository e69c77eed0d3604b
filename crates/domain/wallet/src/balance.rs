//! Balance reads: `POST {baseUrl}/v1/balance` with `{"externalUserId","requestedAt"}`,
//! answered `{"externalUserId","balance","currency"}`. A read changes nothing, so unlike
//! a mutation nothing about it is ambiguous: it either tells a balance or it does not.
//! It is a signed POST rather than a GET because a Standard Webhooks signature covers the
//! body only, and the wallet must know that the platform asked about this very player.

use std::fmt;

use opinion_webhook::CreatedAt;
use serde::{Deserialize, Serialize};

use crate::answer_body::ErrorAnswer;
use crate::money::Currency;
use crate::refusal::RefusalCode;
use crate::transport::TransportOutcome;

/// The body of a balance read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BalanceRequest {
    /// The operator's own identifier of the player.
    pub external_user_id: String,
    /// When the read was sent, RFC 3339 UTC.
    pub requested_at: CreatedAt,
}

/// The body of a 2xx answer to a balance read. Other fields are allowed and ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BalanceAnswer {
    /// The player asked about (must be the one asked about).
    pub external_user_id: String,
    /// The balance in minor units, a string of decimal digits (a leading `-` allowed).
    pub balance: String,
    /// ISO 4217 code of the player's wallet.
    pub currency: Currency,
}

/// What a balance read told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BalanceReading {
    /// The wallet told the player's balance.
    Balance {
        /// Minor units.
        balance: i64,
        /// The wallet's currency.
        currency: Currency,
    },
    /// The wallet refused with a known code (e.g. `user_not_found`, `invalid_signature`).
    Refused {
        /// Why.
        code: RefusalCode,
    },
    /// No usable answer.
    Failed {
        /// What was observed.
        why: BalanceFailure,
    },
}

/// Why a balance read told nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BalanceFailure {
    /// The request never left (name resolution, connection, TLS, refused address).
    NotSent,
    /// No answer in time.
    TimedOut,
    /// The connection broke after sending.
    ConnectionLost,
    /// A 2xx whose body is not a balance answer, or names another player.
    UnreadableAnswer {
        /// The status.
        status: u16,
    },
    /// Any other status, with the error code if the body had the error shape.
    Status {
        /// The status.
        status: u16,
        /// The code, if any.
        code: Option<String>,
    },
}

impl BalanceAnswer {
    /// Reads a success body about `asked`; `None` unless it is whole and about that player.
    pub fn read(body: &[u8], asked: &str) -> Option<(i64, Currency)> {
        let answer: Self = serde_json::from_slice(body).ok()?;
        let balance = answer.balance.parse().ok()?;
        (answer.external_user_id == asked).then_some((balance, answer.currency))
    }
}

/// What the outcome of a balance read about `asked` tells.
pub fn read_balance(outcome: TransportOutcome<'_>, asked: &str) -> BalanceReading {
    let why = match outcome {
        TransportOutcome::NotSent => BalanceFailure::NotSent,
        TransportOutcome::TimedOut => BalanceFailure::TimedOut,
        TransportOutcome::ConnectionLostAfterSend => BalanceFailure::ConnectionLost,
        TransportOutcome::Answered { status, body } => match status {
            200..=299 => match BalanceAnswer::read(body, asked) {
                Some((balance, currency)) => return BalanceReading::Balance { balance, currency },
                None => BalanceFailure::UnreadableAnswer { status },
            },
            _ => {
                let code = ErrorAnswer::read_code(body);
                let known = code.as_deref().and_then(RefusalCode::from_code);
                match known {
                    Some(code) if (400..500).contains(&status) && status != 429 => {
                        return BalanceReading::Refused { code };
                    }
                    _ => BalanceFailure::Status { status, code },
                }
            }
        },
    };
    BalanceReading::Failed { why }
}

impl fmt::Display for BalanceFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotSent => f.write_str("not sent"),
            Self::TimedOut => f.write_str("no answer in time"),
            Self::ConnectionLost => f.write_str("connection lost after sending"),
            Self::UnreadableAnswer { status } => write!(f, "{status} without a readable balance answer"),
            Self::Status {
                status,
                code: Some(code),
            } => write!(f, "{status} with code `{code}`"),
            Self::Status { status, code: None } => write!(f, "status {status}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(status: u16, body: &str) -> BalanceReading {
        read_balance(
            TransportOutcome::Answered {
                status,
                body: body.as_bytes(),
            },
            "player-1",
        )
    }

    fn failed(why: BalanceFailure) -> BalanceReading {
        BalanceReading::Failed { why }
    }

    #[test]
    fn every_row() {
        let idr: Currency = "IDR".parse().unwrap();
        let rows = [
            (
                200,
                r#"{"externalUserId":"player-1","balance":"-25","currency":"IDR","extra":1}"#,
                BalanceReading::Balance {
                    balance: -25,
                    currency: idr,
                },
            ),
            (
                200,
                r#"{"externalUserId":"player-2","balance":"25","currency":"IDR"}"#,
                failed(BalanceFailure::UnreadableAnswer { status: 200 }),
            ),
            (
                200,
                r#"{"externalUserId":"player-1","balance":25,"currency":"IDR"}"#,
                failed(BalanceFailure::UnreadableAnswer { status: 200 }),
            ),
            (
                404,
                r#"{"error":{"code":"user_not_found"}}"#,
                BalanceReading::Refused {
                    code: RefusalCode::UserNotFound,
                },
            ),
            (
                429,
                r#"{"error":{"code":"user_not_found"}}"#,
                failed(BalanceFailure::Status {
                    status: 429,
                    code: Some("user_not_found".into()),
                }),
            ),
            (
                503,
                "",
                failed(BalanceFailure::Status {
                    status: 503,
                    code: None,
                }),
            ),
        ];
        for (status, body, expected) in rows {
            assert_eq!(answered(status, body), expected, "{status} {body}");
        }
        assert_eq!(
            read_balance(TransportOutcome::TimedOut, "player-1"),
            failed(BalanceFailure::TimedOut)
        );
        assert_eq!(
            read_balance(TransportOutcome::NotSent, "player-1"),
            failed(BalanceFailure::NotSent)
        );
    }

    #[test]
    fn the_request_body_is_camel_case() {
        let request = BalanceRequest {
            external_user_id: "player-1".into(),
            requested_at: "2026-11-22T10:15:30Z".parse().unwrap(),
        };
        assert_eq!(
            serde_json::to_string(&request).unwrap(),
            r#"{"externalUserId":"player-1","requestedAt":"2026-11-22T10:15:30Z"}"#
        );
    }
}
