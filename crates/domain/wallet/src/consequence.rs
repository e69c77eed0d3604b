//! What an answer does to a sent operation, by flow role (contract rules 4 and 6). This is
//! the one place that decides between manual review and a retry.
//!
//! | classification | primary (buy, sell, redemption) | compensation (buy compensation) |
//! |---|---|---|
//! | applied | `Applied` | `Applied` |
//! | rejected | `Rejected` | `Rejected` |
//! | rejected `idempotency_key_reused` | `ManualReview` | `ManualReview` |
//! | ambiguous | `ManualReview`: no lookup, no replay | `Prepared`: retry with the original key |
//! | not sent | `Prepared`: send again with the same key | `Prepared`: send again with the same key |
//!
//! A reused key is sent to review whatever the role: the refusal proves this payload did
//! not move money, but says nothing about the earlier payload that owns the key, which
//! may have; a retry would be refused forever, and a new key would break rule 5.

use crate::classification::Classification;
use crate::flow::FlowRole;
use crate::refusal::RefusalCode;
use crate::state::OperationState;

/// The state a sent operation moves to on `classification`.
pub fn state_after_answer(role: FlowRole, classification: &Classification) -> OperationState {
    match classification {
        Classification::Applied { .. } => OperationState::Applied,
        Classification::Rejected {
            code: RefusalCode::IdempotencyKeyReused,
        } => OperationState::ManualReview,
        Classification::Rejected { .. } => OperationState::Rejected,
        Classification::Ambiguous { .. } => match role {
            FlowRole::Primary => OperationState::ManualReview,
            FlowRole::Compensation => OperationState::Prepared,
        },
        Classification::NotSent => OperationState::Prepared,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classification::Ambiguity;
    use crate::remote_reference::RemoteReference;

    fn every_ambiguity() -> Vec<Classification> {
        [
            Ambiguity::TimedOut,
            Ambiguity::ConnectionLostAfterSend,
            Ambiguity::InProgress,
            Ambiguity::RateLimited,
            Ambiguity::ServerError { status: 500 },
            Ambiguity::UnreadableSuccess { status: 200 },
            Ambiguity::UnknownRefusal {
                status: 400,
                code: None,
            },
            Ambiguity::UnexpectedStatus { status: 302 },
        ]
        .into_iter()
        .map(|why| Classification::Ambiguous { why })
        .collect()
    }

    #[test]
    fn ambiguous_primary_mutations_go_to_manual_review() {
        for classification in every_ambiguity() {
            assert_eq!(
                state_after_answer(FlowRole::Primary, &classification),
                OperationState::ManualReview,
                "{classification:?}"
            );
        }
    }

    #[test]
    fn ambiguous_compensations_are_retried_not_reviewed() {
        for classification in every_ambiguity() {
            assert_eq!(
                state_after_answer(FlowRole::Compensation, &classification),
                OperationState::Prepared,
                "{classification:?}"
            );
        }
    }

    #[test]
    fn definite_answers_settle_both_roles() {
        let applied = Classification::Applied {
            remote_reference: RemoteReference::parse("tx").unwrap(),
            balance: 0,
        };
        for role in [FlowRole::Primary, FlowRole::Compensation] {
            assert_eq!(state_after_answer(role, &applied), OperationState::Applied);
            assert_eq!(
                state_after_answer(role, &Classification::NotSent),
                OperationState::Prepared
            );
            for code in RefusalCode::ALL {
                let expected = if code == RefusalCode::IdempotencyKeyReused {
                    OperationState::ManualReview
                } else {
                    OperationState::Rejected
                };
                assert_eq!(state_after_answer(role, &Classification::Rejected { code }), expected);
            }
        }
    }
}
