//! The wallet operation state machine. An operation is born `Prepared` with the one key
//! of its business action and keeps that key for life: no transition takes or makes a
//! key (rules 2, 5 and 6), and none looks anything up (rule 3).
//!
//! ```text
//! Prepared ──send──▶ Sent ──answer──▶ Applied | Rejected            (definite)
//!    ▲  │                  ├─answer──▶ ManualReview ──staff──▶ ResolvedApplied
//!    │  └─abandon (primary)│           (primary ambiguous, a reused | ResolvedNotApplied
//!    │     ▼               │            key, an owed credit refused
//!    │                     │            or out of retries)
//!    │  Abandoned          │
//!    └───────answer────────┘  (not sent; or compensation ambiguous: retry, same key)
//! ```

use std::fmt;

use crate::classification::Classification;
use crate::consequence::answer_consequence;
use crate::flow::{FlowRole, WalletFlow};
use crate::idempotency_key::IdempotencyKey;
use crate::mutation::WalletMutation;
use crate::retry_limit::RetryLimit;
use crate::review_reason::ReviewReason;
use crate::staff_resolution::{StaffResolution, WalletLogFinding};
use crate::state::OperationState;

/// One wallet mutation's progress: its flow, its key, its state and how often it was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletOperation {
    flow: WalletFlow,
    key: IdempotencyKey,
    state: OperationState,
    attempts: u32,
}

/// An operation after an answer, with why it waits for staff when it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    /// The operation, moved by the answer.
    pub operation: WalletOperation,
    /// Set exactly when the operation is now in manual review.
    pub review_reason: Option<ReviewReason>,
}

/// What was asked of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperationEvent {
    /// Mark it sent, just before the call.
    Send,
    /// Record the classified answer of the call.
    Answer,
    /// Give up a primary mutation that was never sent.
    Abandon,
    /// Settle it by a staff resolution.
    StaffResolution,
}

/// A move the state machine does not allow; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {flow} operation in state {from} cannot take {event}")]
pub struct IllegalTransition {
    /// The operation's flow.
    pub flow: WalletFlow,
    /// The state it was in.
    pub from: OperationState,
    /// What was asked.
    pub event: OperationEvent,
}

impl WalletOperation {
    /// A new operation for `mutation`, to be persisted (with the mutation's fingerprint)
    /// before anything is sent.
    pub fn prepare(mutation: &WalletMutation) -> Self {
        Self {
            flow: mutation.flow(),
            key: mutation.idempotency_key(),
            state: OperationState::Prepared,
            attempts: 0,
        }
    }

    /// Rebuilds an operation exactly as it was stored.
    pub fn restore(flow: WalletFlow, key: IdempotencyKey, state: OperationState, attempts: u32) -> Self {
        Self {
            flow,
            key,
            state,
            attempts,
        }
    }

    /// The flow.
    pub const fn flow(&self) -> WalletFlow {
        self.flow
    }

    /// The key every attempt carries.
    pub const fn key(&self) -> &IdempotencyKey {
        &self.key
    }

    /// The state.
    pub const fn state(&self) -> OperationState {
        self.state
    }

    /// How many times the call was started.
    pub const fn attempts(&self) -> u32 {
        self.attempts
    }

    /// `Prepared → Sent`, counting an attempt. Persist the result before calling the wallet.
    pub fn send(&self) -> Result<Self, IllegalTransition> {
        self.require(OperationState::Prepared, OperationEvent::Send)?;
        let mut sent = self.moved_to(OperationState::Sent);
        sent.attempts = sent.attempts.saturating_add(1);
        Ok(sent)
    }

    /// `Sent → …` by what the answer means for this flow (see `consequence.rs`), under
    /// the default retry limit.
    pub fn record_answer(&self, classification: &Classification) -> Result<Self, IllegalTransition> {
        self.answer_within(classification, RetryLimit::DEFAULT)
            .map(|answered| answered.operation)
    }

    /// `Sent → …` by what the answer means for this flow, an owed credit sent at most
    /// `limit` times, with the review reason when it goes to staff.
    pub fn answer_within(
        &self,
        classification: &Classification,
        limit: RetryLimit,
    ) -> Result<Answered, IllegalTransition> {
        self.require(OperationState::Sent, OperationEvent::Answer)?;
        let consequence = answer_consequence(self.flow, classification, self.attempts, limit);
        Ok(Answered {
            operation: self.moved_to(consequence.state),
            review_reason: consequence.review_reason,
        })
    }

    /// `Prepared → Abandoned`, for a primary mutation only: a compensation is money owed
    /// to the player and is retried (rule 6) until it is applied or staff take it.
    pub fn abandon(&self) -> Result<Self, IllegalTransition> {
        self.require(OperationState::Prepared, OperationEvent::Abandon)?;
        match self.flow.role() {
            FlowRole::Primary => Ok(self.moved_to(OperationState::Abandoned)),
            FlowRole::Compensation => Err(self.illegal(OperationEvent::Abandon)),
        }
    }

    /// `ManualReview → ResolvedApplied | ResolvedNotApplied`, by what staff found in the
    /// operator's wallet log. The only way out of manual review.
    pub fn resolve(&self, resolution: &StaffResolution) -> Result<Self, IllegalTransition> {
        self.require(OperationState::ManualReview, OperationEvent::StaffResolution)?;
        Ok(self.moved_to(match resolution.finding {
            WalletLogFinding::Applied { .. } => OperationState::ResolvedApplied,
            WalletLogFinding::NotApplied => OperationState::ResolvedNotApplied,
        }))
    }

    /// The same operation, same key, in another state.
    pub(crate) fn moved_to(&self, state: OperationState) -> Self {
        Self { state, ..self.clone() }
    }

    fn require(&self, from: OperationState, event: OperationEvent) -> Result<(), IllegalTransition> {
        if self.state == from {
            Ok(())
        } else {
            Err(self.illegal(event))
        }
    }

    fn illegal(&self, event: OperationEvent) -> IllegalTransition {
        IllegalTransition {
            flow: self.flow,
            from: self.state,
            event,
        }
    }
}

impl fmt::Display for OperationEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Send => "send",
            Self::Answer => "an answer",
            Self::Abandon => "abandon",
            Self::StaffResolution => "a staff resolution",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classification::Ambiguity;
    use crate::metadata::samples;
    use crate::money::Amount;
    use crate::refusal::RefusalCode;
    use crate::remote_reference::RemoteReference;
    use opinion_core::Label;

    fn prepared(flow: WalletFlow) -> WalletOperation {
        let metadata = samples::all().into_iter().find(|m| m.flow() == flow).unwrap();
        let mutation =
            WalletMutation::new("player-1", Amount::new(100).unwrap(), "IDR".parse().unwrap(), metadata).unwrap();
        WalletOperation::prepare(&mutation)
    }

    fn in_state(flow: WalletFlow, state: OperationState) -> WalletOperation {
        prepared(flow).moved_to(state)
    }

    fn timed_out() -> Classification {
        Classification::Ambiguous {
            why: Ambiguity::TimedOut,
        }
    }

    fn resolution(finding: WalletLogFinding) -> StaffResolution {
        StaffResolution {
            resolved_by: Label::parse("ops-ana").unwrap(),
            finding,
            note: Label::parse("wallet log line 4411, balance operation at 10:02:03Z").unwrap(),
        }
    }

    fn applied() -> Classification {
        Classification::Applied {
            remote_reference: RemoteReference::parse("tx-1").unwrap(),
            balance: 0,
        }
    }

    #[test]
    fn prepare_starts_unsent_with_the_actions_key() {
        let operation = prepared(WalletFlow::Buy);
        assert_eq!(operation.state(), OperationState::Prepared);
        assert_eq!(operation.attempts(), 0);
        assert_eq!(operation.key().as_str(), "buy:trd_00000000000000000000000002");
    }

    #[test]
    fn send_is_only_legal_from_prepared_and_counts_attempts() {
        for flow in WalletFlow::ALL {
            for state in OperationState::ALL {
                let result = in_state(flow, state).send();
                if state == OperationState::Prepared {
                    let sent = result.unwrap();
                    assert_eq!((sent.state(), sent.attempts()), (OperationState::Sent, 1));
                } else {
                    assert_eq!(
                        result,
                        Err(IllegalTransition {
                            flow,
                            from: state,
                            event: OperationEvent::Send
                        })
                    );
                }
            }
        }
    }

    #[test]
    fn answers_are_only_legal_when_sent() {
        for flow in WalletFlow::ALL {
            for state in OperationState::ALL.into_iter().filter(|s| *s != OperationState::Sent) {
                for answer in [applied(), timed_out(), Classification::NotSent] {
                    assert_eq!(
                        in_state(flow, state).record_answer(&answer),
                        Err(IllegalTransition {
                            flow,
                            from: state,
                            event: OperationEvent::Answer
                        })
                    );
                }
            }
        }
    }

    #[test]
    fn sent_moves_by_the_answer() {
        let rejected = Classification::Rejected {
            code: RefusalCode::InsufficientFunds,
        };
        let rows = [
            (WalletFlow::Buy, applied(), OperationState::Applied),
            (WalletFlow::Sell, rejected.clone(), OperationState::Rejected),
            (WalletFlow::Redemption, timed_out(), OperationState::ManualReview),
            (WalletFlow::Buy, Classification::NotSent, OperationState::Prepared),
            (WalletFlow::BuyCompensation, applied(), OperationState::Applied),
            (WalletFlow::BuyCompensation, rejected, OperationState::ManualReview),
            (WalletFlow::BuyCompensation, timed_out(), OperationState::Prepared),
            (
                WalletFlow::FlightTicketPurchase,
                timed_out(),
                OperationState::ManualReview,
            ),
            (
                WalletFlow::FlightTicketPayout,
                timed_out(),
                OperationState::ManualReview,
            ),
            (WalletFlow::FlightTicketRefund, timed_out(), OperationState::Prepared),
            (WalletFlow::FlightTicketRefund, applied(), OperationState::Applied),
        ];
        for (flow, answer, expected) in rows {
            let next = prepared(flow).send().unwrap().record_answer(&answer).unwrap();
            assert_eq!(next.state(), expected, "{flow} {answer:?}");
        }
    }

    #[test]
    fn only_unsent_primaries_can_be_abandoned() {
        for flow in WalletFlow::ALL {
            for state in OperationState::ALL {
                let result = in_state(flow, state).abandon().map(|op| op.state());
                if state == OperationState::Prepared && flow.role() == FlowRole::Primary {
                    assert_eq!(result, Ok(OperationState::Abandoned));
                } else {
                    assert_eq!(
                        result,
                        Err(IllegalTransition {
                            flow,
                            from: state,
                            event: OperationEvent::Abandon
                        })
                    );
                }
            }
        }
    }

    #[test]
    fn only_manual_review_takes_a_staff_resolution() {
        let found = WalletLogFinding::Applied {
            remote_reference: RemoteReference::parse("tx-9").unwrap(),
        };
        for flow in WalletFlow::ALL {
            for state in OperationState::ALL {
                let operation = in_state(flow, state);
                let applied = operation.resolve(&resolution(found.clone())).map(|op| op.state());
                let not_applied = operation
                    .resolve(&resolution(WalletLogFinding::NotApplied))
                    .map(|op| op.state());
                if state == OperationState::ManualReview {
                    assert_eq!(applied, Ok(OperationState::ResolvedApplied));
                    assert_eq!(not_applied, Ok(OperationState::ResolvedNotApplied));
                } else {
                    let illegal = Err(IllegalTransition {
                        flow,
                        from: state,
                        event: OperationEvent::StaffResolution,
                    });
                    assert_eq!(applied, illegal.clone());
                    assert_eq!(not_applied, illegal);
                }
            }
        }
    }

    #[test]
    fn errors_say_what_was_refused() {
        let error = in_state(WalletFlow::Buy, OperationState::Applied).send().unwrap_err();
        assert_eq!(error.to_string(), "a buy operation in state applied cannot take send");
    }
}
