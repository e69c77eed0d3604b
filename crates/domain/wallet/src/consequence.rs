//! What an answer does to a sent operation (contract rules 4 and 6, and the limit on money
//! owed to a player). This is the one place that decides between manual review, a retry
//! and a settled state.
//!
//! | classification | primary, not owed (buy, sell, ticket purchase) | primary, owed (redemption, ticket payout) | compensation (buy compensation, ticket refund) |
//! |---|---|---|---|
//! | applied | `Applied` | `Applied` | `Applied` |
//! | rejected | `Rejected` | review, `refused_credit` | review, `refused_credit` |
//! | rejected `idempotency_key_reused` | review, `key_reused` | review, `key_reused` | review, `key_reused` |
//! | ambiguous | review, `ambiguous` | review, `ambiguous` | send again ¹ |
//! | not sent | `Prepared` | send again ¹ | send again ¹ |
//!
//! ¹ `Prepared` with the same key while the retry limit allows another send, else review,
//! `retries_exhausted`.
//!
//! A reused key is sent to review whatever the role: the refusal proves this payload did
//! not move money, but says nothing about the earlier payload that owns the key, which
//! may have; a retry would be refused forever, and a new key would break rule 5. A
//! definite refusal of money owed to the player (a payout, a refund) is not the end of
//! it: the amount is still owed, so staff take the case. A sale refused is not owed
//! money: the player keeps the shares. A primary that is not owed and was not sent is
//! left `Prepared` for its synchronous caller, which sends or abandons it.

use crate::classification::Classification;
use crate::flow::{FlowRole, WalletFlow};
use crate::refusal::RefusalCode;
use crate::retry_limit::RetryLimit;
use crate::review_reason::ReviewReason;
use crate::state::OperationState;

/// Where an answer leaves an operation, and why staff must look at it when it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Consequence {
    /// The operation's next state.
    pub state: OperationState,
    /// Set exactly when `state` is `ManualReview`.
    pub review_reason: Option<ReviewReason>,
}

impl Consequence {
    const fn settled(state: OperationState) -> Self {
        Self {
            state,
            review_reason: None,
        }
    }

    const fn review(reason: ReviewReason) -> Self {
        Self {
            state: OperationState::ManualReview,
            review_reason: Some(reason),
        }
    }
}

/// What `classification` does to a `flow` operation sent `attempts` times so far (this
/// send included), under `limit`.
pub fn answer_consequence(
    flow: WalletFlow,
    classification: &Classification,
    attempts: u32,
    limit: RetryLimit,
) -> Consequence {
    let again = || send_again(flow, attempts, limit);
    match classification {
        Classification::Applied { .. } => Consequence::settled(OperationState::Applied),
        Classification::Rejected {
            code: RefusalCode::IdempotencyKeyReused,
        } => Consequence::review(ReviewReason::KeyReused),
        Classification::Rejected { .. } if flow.owes_player() => Consequence::review(ReviewReason::RefusedCredit),
        Classification::Rejected { .. } => Consequence::settled(OperationState::Rejected),
        Classification::Ambiguous { .. } => match flow.role() {
            FlowRole::Primary => Consequence::review(ReviewReason::Ambiguous),
            FlowRole::Compensation => again(),
        },
        Classification::NotSent => again(),
    }
}

/// An operation that must be sent again: `Prepared`, unless it is owed money that has
/// used up its sends.
pub(crate) fn send_again(flow: WalletFlow, attempts: u32, limit: RetryLimit) -> Consequence {
    if flow.owes_player() && !limit.allows_another(attempts) {
        Consequence::review(ReviewReason::RetriesExhausted)
    } else {
        Consequence::settled(OperationState::Prepared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classification::Ambiguity;
    use crate::remote_reference::RemoteReference;
    use proptest::prelude::*;

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

    fn every_classification() -> Vec<Classification> {
        let mut all = vec![
            Classification::Applied {
                remote_reference: RemoteReference::parse("tx").unwrap(),
                balance: 0,
            },
            Classification::NotSent,
        ];
        all.extend(RefusalCode::ALL.map(|code| Classification::Rejected { code }));
        all.extend(every_ambiguity());
        all
    }

    const LIMIT: RetryLimit = RetryLimit::new(12);

    fn state(flow: WalletFlow, classification: &Classification, attempts: u32) -> Consequence {
        answer_consequence(flow, classification, attempts, LIMIT)
    }

    #[test]
    fn owed_credits_are_the_four_flows_that_give_the_player_money_it_is_due() {
        let owed: Vec<_> = WalletFlow::ALL.into_iter().filter(|f| f.owes_player()).collect();
        assert_eq!(
            owed,
            [
                WalletFlow::BuyCompensation,
                WalletFlow::Redemption,
                WalletFlow::FlightTicketPayout,
                WalletFlow::FlightTicketRefund
            ]
        );
    }

    /// Every flow × every classification, below, at and beyond the limit.
    #[test]
    fn the_whole_table() {
        use OperationState::{Applied, Prepared, Rejected};
        let review = Consequence::review;
        for flow in WalletFlow::ALL {
            for classification in every_classification() {
                for attempts in [1, 11, 12, 13, 40] {
                    let within = attempts < 12;
                    let again = if !flow.owes_player() || within {
                        Consequence::settled(Prepared)
                    } else {
                        review(ReviewReason::RetriesExhausted)
                    };
                    let expected = match &classification {
                        Classification::Applied { .. } => Consequence::settled(Applied),
                        Classification::Rejected {
                            code: RefusalCode::IdempotencyKeyReused,
                        } => review(ReviewReason::KeyReused),
                        Classification::Rejected { .. } if flow.owes_player() => review(ReviewReason::RefusedCredit),
                        Classification::Rejected { .. } => Consequence::settled(Rejected),
                        Classification::Ambiguous { .. } if flow.role() == FlowRole::Primary => {
                            review(ReviewReason::Ambiguous)
                        }
                        Classification::Ambiguous { .. } | Classification::NotSent => again,
                    };
                    assert_eq!(
                        state(flow, &classification, attempts),
                        expected,
                        "{flow} {classification:?} after {attempts}"
                    );
                }
            }
        }
    }

    #[test]
    fn ambiguous_primary_mutations_go_to_manual_review() {
        for classification in every_ambiguity() {
            for flow in WalletFlow::ALL.into_iter().filter(|f| f.role() == FlowRole::Primary) {
                assert_eq!(
                    state(flow, &classification, 1),
                    Consequence::review(ReviewReason::Ambiguous),
                    "{flow} {classification:?}"
                );
            }
        }
    }

    #[test]
    fn ambiguous_compensations_are_retried_until_the_limit() {
        for classification in every_ambiguity() {
            for flow in [WalletFlow::BuyCompensation, WalletFlow::FlightTicketRefund] {
                assert_eq!(state(flow, &classification, 11).state, OperationState::Prepared);
                assert_eq!(
                    state(flow, &classification, 12),
                    Consequence::review(ReviewReason::RetriesExhausted)
                );
            }
        }
    }

    #[test]
    fn a_refused_sale_or_debit_stays_rejected_and_a_refused_owed_credit_is_reviewed() {
        for code in RefusalCode::ALL
            .into_iter()
            .filter(|c| *c != RefusalCode::IdempotencyKeyReused)
        {
            let refused = Classification::Rejected { code };
            for flow in [WalletFlow::Buy, WalletFlow::Sell, WalletFlow::FlightTicketPurchase] {
                assert_eq!(state(flow, &refused, 1), Consequence::settled(OperationState::Rejected));
            }
            for flow in WalletFlow::ALL.into_iter().filter(|f| f.owes_player()) {
                assert_eq!(
                    state(flow, &refused, 1),
                    Consequence::review(ReviewReason::RefusedCredit)
                );
            }
        }
    }

    fn any_flow() -> impl Strategy<Value = WalletFlow> {
        proptest::sample::select(WalletFlow::ALL.to_vec())
    }

    fn any_classification() -> impl Strategy<Value = Classification> {
        proptest::sample::select(every_classification())
    }

    proptest! {
        /// Whatever the answer: a review always says why; an owed credit is never left
        /// refused and never sent past its limit; an operation that is not owed money
        /// never goes to review for a reason that only owed money has.
        #[test]
        fn owed_money_is_never_dropped_nor_retried_forever(
            flow in any_flow(),
            classification in any_classification(),
            attempts in 0_u32..64,
            max in 1_u32..32,
        ) {
            let limit = RetryLimit::new(max);
            let next = answer_consequence(flow, &classification, attempts, limit);
            prop_assert_eq!(next.review_reason.is_some(), next.state == OperationState::ManualReview);
            if next.state == OperationState::Prepared && flow.owes_player() {
                prop_assert!(attempts < max);
            }
            if flow.owes_player() {
                prop_assert_ne!(next.state, OperationState::Rejected);
            } else {
                prop_assert!(!matches!(
                    next.review_reason,
                    Some(ReviewReason::RetriesExhausted | ReviewReason::RefusedCredit)
                ));
            }
        }
    }
}
