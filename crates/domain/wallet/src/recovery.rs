//! Crash recovery (contract rules 4 and 6, design §5): what an operation found at
//! start-up means. `Sent` means the call may have reached the wallet and its answer was
//! lost, which is ambiguous: a primary goes to manual review, a compensation is retried
//! with its original key while its retry limit allows, else it goes to staff too.
//! `Prepared` means the call provably never left (the state is persisted as `Sent`
//! before any byte is written), so it may be sent with its key.

use crate::consequence::send_again;
use crate::flow::FlowRole;
use crate::operation::WalletOperation;
use crate::retry_limit::RetryLimit;
use crate::review_reason::ReviewReason;
use crate::state::OperationState;

/// What the service must do with an operation after start-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartupAction {
    /// A primary never sent: send it with its key, or abandon it if the business action
    /// is no longer wanted.
    SendOrAbandon,
    /// A compensation not settled: send it with its original key (money is owed).
    Send,
    /// Waiting for platform staff; nothing automatic may happen.
    AwaitStaff,
    /// Settled; nothing to do.
    Nothing,
}

/// The operation as it must be persisted after start-up, and what to do with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovery {
    /// The operation, moved out of `Sent` if it was there; same key.
    pub operation: WalletOperation,
    /// What to do next.
    pub action: StartupAction,
    /// Why it waits for staff, when it was moved to manual review just now.
    pub review_reason: Option<ReviewReason>,
}

impl WalletOperation {
    /// Applies the crash recovery rule to an operation read at start-up, under the
    /// default retry limit.
    pub fn recover_at_startup(&self) -> Recovery {
        self.recover_within(RetryLimit::DEFAULT)
    }

    /// Applies the crash recovery rule to an operation whose answer was lost, an owed
    /// credit sent at most `limit` times.
    pub fn recover_within(&self, limit: RetryLimit) -> Recovery {
        let role = self.flow().role();
        let mut review_reason = None;
        let (state, action) = match (self.state(), role) {
            (OperationState::Sent, FlowRole::Primary) => {
                review_reason = Some(ReviewReason::LostAnswer);
                (OperationState::ManualReview, StartupAction::AwaitStaff)
            }
            (OperationState::Sent, FlowRole::Compensation) => {
                let again = send_again(self.flow(), self.attempts(), limit);
                review_reason = again.review_reason;
                match again.state {
                    OperationState::Prepared => (OperationState::Prepared, StartupAction::Send),
                    other => (other, StartupAction::AwaitStaff),
                }
            }
            (OperationState::Prepared, FlowRole::Compensation) => (OperationState::Prepared, StartupAction::Send),
            (OperationState::Prepared, FlowRole::Primary) => (OperationState::Prepared, StartupAction::SendOrAbandon),
            (OperationState::ManualReview, _) => (OperationState::ManualReview, StartupAction::AwaitStaff),
            (settled, _) => (settled, StartupAction::Nothing),
        };
        Recovery {
            operation: self.moved_to(state),
            action,
            review_reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::WalletFlow;
    use crate::idempotency_key::IdempotencyKey;

    fn found(flow: WalletFlow, state: OperationState) -> WalletOperation {
        let key = IdempotencyKey::parse(&format!("{flow}:trd_00000000000000000000000001")).unwrap();
        WalletOperation::restore(flow, key, state, 3)
    }

    #[test]
    fn every_state_and_role() {
        use OperationState::*;
        use StartupAction::*;
        let primary = [
            (Prepared, Prepared, SendOrAbandon),
            (Sent, ManualReview, AwaitStaff),
            (ManualReview, ManualReview, AwaitStaff),
            (Applied, Applied, Nothing),
            (Rejected, Rejected, Nothing),
            (ResolvedApplied, ResolvedApplied, Nothing),
            (ResolvedNotApplied, ResolvedNotApplied, Nothing),
            (Abandoned, Abandoned, Nothing),
        ];
        let compensation = [
            (Prepared, Prepared, Send),
            (Sent, Prepared, Send),
            (ManualReview, ManualReview, AwaitStaff),
            (Applied, Applied, Nothing),
            (Rejected, Rejected, Nothing),
            (ResolvedApplied, ResolvedApplied, Nothing),
            (ResolvedNotApplied, ResolvedNotApplied, Nothing),
            (Abandoned, Abandoned, Nothing),
        ];
        let rows = WalletFlow::ALL.into_iter().flat_map(|flow| match flow.role() {
            FlowRole::Primary => primary.map(|row| (flow, row)),
            FlowRole::Compensation => compensation.map(|row| (flow, row)),
        });
        assert_eq!(
            WalletFlow::ALL
                .into_iter()
                .filter(|flow| flow.role() == FlowRole::Compensation)
                .collect::<Vec<_>>(),
            [WalletFlow::BuyCompensation, WalletFlow::FlightTicketRefund]
        );
        for (flow, (from, to, action)) in rows {
            let before = found(flow, from);
            let recovery = before.recover_at_startup();
            assert_eq!(recovery.operation.state(), to, "{flow} {from}");
            assert_eq!(recovery.action, action, "{flow} {from}");
            assert_eq!(recovery.operation.key(), before.key(), "{flow} {from}");
            assert_eq!(recovery.operation.attempts(), 3, "{flow} {from}");
            let expected_reason =
                (from == Sent && flow.role() == FlowRole::Primary).then_some(ReviewReason::LostAnswer);
            assert_eq!(recovery.review_reason, expected_reason, "{flow} {from}");
        }
    }

    #[test]
    fn a_lost_compensation_answer_past_the_limit_goes_to_staff() {
        for flow in [WalletFlow::BuyCompensation, WalletFlow::FlightTicketRefund] {
            let sent = found(flow, OperationState::Sent);
            let within = sent.recover_within(RetryLimit::new(4));
            assert_eq!(
                (within.operation.state(), within.action, within.review_reason),
                (OperationState::Prepared, StartupAction::Send, None)
            );
            let beyond = sent.recover_within(RetryLimit::new(3));
            assert_eq!(
                (beyond.operation.state(), beyond.action, beyond.review_reason),
                (
                    OperationState::ManualReview,
                    StartupAction::AwaitStaff,
                    Some(ReviewReason::RetriesExhausted)
                )
            );
            assert_eq!(beyond.operation.key(), sent.key());
        }
    }
}
