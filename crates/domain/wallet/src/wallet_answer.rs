//! A wallet's answer as a contract-abiding wallet writes it: a status and one of the
//! contract's bodies (`answer_body.rs`, `balance.rs`). The reference wallet, the test
//! wallet and the staging simulator answer with it, so they can only answer in shapes the
//! platform reads.

use crate::answer_body::{AppliedAnswer, AppliedStatus, ErrorAnswer, ErrorDetail};
use crate::balance::BalanceAnswer;
use crate::classification::{IN_PROGRESS_CODE, IN_PROGRESS_STATUS};
use crate::money::Currency;
use crate::refusal::RefusalCode;
use crate::remote_reference::RemoteReference;

/// One answer: its status and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: AnswerBody,
}

/// The body of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerBody {
    /// `{"status":"applied",…}`.
    Applied(AppliedAnswer),
    /// `{"externalUserId",…}`.
    Balance(BalanceAnswer),
    /// `{"error":{"code",…}}`.
    Error(ErrorAnswer),
}

impl WalletAnswer {
    /// 200: the mutation is applied and the player's balance is now `balance`.
    pub fn applied(remote_reference: RemoteReference, balance: i64) -> Self {
        Self {
            status: 200,
            body: AnswerBody::Applied(AppliedAnswer {
                status: AppliedStatus::Applied,
                remote_reference,
                balance: balance.to_string(),
            }),
        }
    }

    /// 200: the player's balance.
    pub fn balance(external_user_id: &str, balance: i64, currency: Currency) -> Self {
        Self {
            status: 200,
            body: AnswerBody::Balance(BalanceAnswer {
                external_user_id: external_user_id.to_owned(),
                balance: balance.to_string(),
                currency,
            }),
        }
    }

    /// A definite refusal, with the code's status.
    pub fn refused(code: RefusalCode, message: impl Into<String>) -> Self {
        Self::error(code.http_status(), code.as_str(), message)
    }

    /// 409: the key's first request is still being processed.
    pub fn in_progress() -> Self {
        Self::error(
            IN_PROGRESS_STATUS,
            IN_PROGRESS_CODE,
            "the first request with this key is still being processed",
        )
    }

    /// Any error answer (e.g. a 5xx a faulty wallet might send).
    pub fn error(status: u16, code: &str, message: impl Into<String>) -> Self {
        Self {
            status,
            body: AnswerBody::Error(ErrorAnswer {
                error: ErrorDetail {
                    code: code.to_owned(),
                    message: Some(message.into()),
                },
            }),
        }
    }

    /// Whether it says the mutation is applied.
    pub fn is_applied(&self) -> bool {
        matches!(self.body, AnswerBody::Applied(_))
    }

    /// The body's JSON bytes.
    pub fn body_bytes(&self) -> Result<Vec<u8>, serde_json::Error> {
        match &self.body {
            AnswerBody::Applied(body) => serde_json::to_vec(body),
            AnswerBody::Balance(body) => serde_json::to_vec(body),
            AnswerBody::Error(body) => serde_json::to_vec(body),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classification::{Ambiguity, Classification, classify};
    use crate::transport::TransportOutcome;

    fn classified(answer: &WalletAnswer) -> Classification {
        let body = answer.body_bytes().unwrap();
        classify(TransportOutcome::Answered {
            status: answer.status,
            body: &body,
        })
    }

    #[test]
    fn what_a_wallet_answers_the_platform_classifies_as_meant() {
        let reference = RemoteReference::parse("rw-1").unwrap();
        assert_eq!(
            classified(&WalletAnswer::applied(reference.clone(), -5)),
            Classification::Applied {
                remote_reference: reference,
                balance: -5
            }
        );
        for code in RefusalCode::ALL {
            assert_eq!(
                classified(&WalletAnswer::refused(code, "no")),
                Classification::Rejected { code }
            );
        }
        assert_eq!(
            classified(&WalletAnswer::in_progress()),
            Classification::Ambiguous {
                why: Ambiguity::InProgress
            }
        );
    }

    #[test]
    fn balance_answers_are_the_contract_shape() {
        let answer = WalletAnswer::balance("player-1", 25, "IDR".parse().unwrap());
        let body = String::from_utf8(answer.body_bytes().unwrap()).unwrap();
        assert_eq!(body, r#"{"externalUserId":"player-1","balance":"25","currency":"IDR"}"#);
        assert!(!answer.is_applied());
    }
}
