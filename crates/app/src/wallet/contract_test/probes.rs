//! The probes the wallet test sends: mutation bodies of each flow for the test player,
//! balance reads, and how an answer reads against what the contract requires.

use opinion_core::{FlightId, MarketId, RedemptionId, TicketId, TradeId, WalletOperationId};
use opinion_flight::Multiplier;
use opinion_market::{Outcome, Resolution};
use opinion_wallet::{
    Amount, BalanceReading, BuyCompensationMetadata, Classification, Currency, FlowMetadata, MutationRequest,
    RedemptionMetadata, RefusalCode, ShareCount, TicketPayoutMetadata, TicketPurchaseMetadata, TicketRefundMetadata,
    TradeMetadata, WalletFlow, WalletMutation, balance_read_id, classify, read_balance,
};
use serde_json::{Map, Value};

use crate::ports::Random;

use crate::wallet::ports::{ProbeObserved, ProbePath, ProbeSigning, WalletProbe};

/// A mutation the test sends: its key and its body fields but `requestedAt`.
#[derive(Debug, Clone)]
pub(super) struct TestMutation {
    pub(super) key: String,
    pub(super) fields: Map<String, Value>,
}

impl TestMutation {
    /// The same key with another amount.
    pub(super) fn with_amount(&self, amount: i64) -> Self {
        let mut fields = self.fields.clone();
        fields.insert("amount".into(), amount.to_string().into());
        Self {
            key: self.key.clone(),
            fields,
        }
    }

    /// The same mutation without metadata key `key`.
    pub(super) fn without_metadata(&self, key: &str) -> Self {
        let mut fields = self.fields.clone();
        if let Some(Value::Object(metadata)) = fields.get_mut("metadata") {
            metadata.remove(key);
        }
        Self {
            key: self.key.clone(),
            fields,
        }
    }

    /// The probe sending it, signed as asked, its timestamp shifted by `shift` seconds.
    pub(super) fn probe(&self, signing: ProbeSigning, shift: i64) -> WalletProbe {
        WalletProbe {
            path: ProbePath::Mutations,
            message_id: self.key.clone(),
            idempotency_key: Some(self.key.clone()),
            fields: self.fields.clone(),
            signing,
            timestamp_shift_secs: shift,
        }
    }
}

/// The multiplier the flight section's payout is cashed out at (and its ticket's auto
/// cash-out target).
pub(super) const TEST_MULTIPLIER: Multiplier = Multiplier::from_hundredths(200);

/// A made-up ticket of the flight section: its id, the operation of its purchase (which
/// a refund names) and its auto cash-out target.
#[derive(Debug, Clone, Copy)]
pub(super) struct TestTicket {
    pub(super) ticket: TicketId,
    pub(super) purchase: WalletOperationId,
    pub(super) auto_cash_out: Option<Multiplier>,
}

/// Builds the test's mutations with fresh ids, on one made-up market and one made-up
/// flight.
pub(super) struct MutationFactory<'a> {
    pub(super) random: &'a dyn Random,
    pub(super) currency: Currency,
    pub(super) market: MarketId,
    pub(super) flight: FlightId,
}

impl MutationFactory<'_> {
    /// A fresh ticket.
    pub(super) fn ticket(&self, auto_cash_out: Option<Multiplier>) -> TestTicket {
        TestTicket {
            ticket: TicketId::from_ulid(self.random.ulid()),
            purchase: WalletOperationId::from_ulid(self.random.ulid()),
            auto_cash_out,
        }
    }

    /// A mutation of `flow` for `user` of `amount`, with all its metadata (a flight
    /// flow's on a fresh ticket).
    pub(super) fn of(&self, flow: WalletFlow, user: &str, amount: i64) -> Option<TestMutation> {
        self.on_ticket(flow, user, amount, self.ticket(None))
    }

    /// A mutation of `flow` for `user` of `amount`; a flight flow's names `ticket`.
    pub(super) fn on_ticket(
        &self,
        flow: WalletFlow,
        user: &str,
        amount: i64,
        ticket: TestTicket,
    ) -> Option<TestMutation> {
        let trade = TradeId::from_ulid(self.random.ulid());
        let market_id = self.market;
        let flight_id = self.flight;
        let shares = ShareCount::new(amount).ok()?;
        let metadata = match flow {
            WalletFlow::Buy => FlowMetadata::Buy(TradeMetadata {
                market_id,
                trade_id: trade,
                outcome: Outcome::Yes,
                shares,
            }),
            WalletFlow::Sell => FlowMetadata::Sell(TradeMetadata {
                market_id,
                trade_id: trade,
                outcome: Outcome::Yes,
                shares,
            }),
            WalletFlow::BuyCompensation => FlowMetadata::BuyCompensation(BuyCompensationMetadata {
                market_id,
                trade_id: trade,
                compensated_operation_id: WalletOperationId::from_ulid(self.random.ulid()),
            }),
            WalletFlow::Redemption => FlowMetadata::Redemption(RedemptionMetadata {
                market_id,
                redemption_id: RedemptionId::from_ulid(self.random.ulid()),
                resolution: Resolution::Yes,
            }),
            WalletFlow::FlightTicketPurchase => FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
                flight_id,
                ticket_id: ticket.ticket,
                auto_cash_out: ticket.auto_cash_out,
            }),
            WalletFlow::FlightTicketPayout => FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
                flight_id,
                ticket_id: ticket.ticket,
                multiplier: TEST_MULTIPLIER,
            }),
            WalletFlow::FlightTicketRefund => FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
                flight_id,
                ticket_id: ticket.ticket,
                refund_of: ticket.purchase,
            }),
        };
        let mutation = WalletMutation::new(user, Amount::new(amount).ok()?, self.currency, metadata).ok()?;
        let body = MutationRequest::of(&mutation, "2000-01-01T00:00:00Z".parse().ok()?);
        let Value::Object(mut fields) = serde_json::to_value(&body).ok()? else {
            return None;
        };
        fields.remove("requestedAt");
        Some(TestMutation {
            key: mutation.idempotency_key().as_str().to_owned(),
            fields,
        })
    }
}

/// A balance read of `user`.
pub(super) fn balance_probe(random: &dyn Random, user: &str, signing: ProbeSigning) -> WalletProbe {
    let mut fields = Map::new();
    fields.insert("externalUserId".into(), user.into());
    WalletProbe {
        path: ProbePath::Balance,
        message_id: balance_read_id(&random.ulid().to_string().to_ascii_lowercase()),
        idempotency_key: None,
        fields,
        signing,
        timestamp_shift_secs: 0,
    }
}

/// The answer as the platform reads a mutation's answer.
pub(super) fn classification(observed: &ProbeObserved) -> Classification {
    classify(observed.transport())
}

/// `Ok` with the reference and balance when applied; the problem otherwise.
pub(super) fn expect_applied(observed: &ProbeObserved) -> Result<(String, i64), String> {
    match classification(observed) {
        Classification::Applied {
            remote_reference,
            balance,
        } => Ok((remote_reference.as_str().to_owned(), balance)),
        other => Err(format!("expected an applied answer, the platform read: {other:?}")),
    }
}

/// `Ok` when the answer is the definite refusal `code`; the problem otherwise.
pub(super) fn expect_refusal(observed: &ProbeObserved, code: RefusalCode) -> Result<(), String> {
    match classification(observed) {
        Classification::Rejected { code: got } if got == code => Ok(()),
        other => Err(format!("expected the refusal `{code}`, the platform read: {other:?}")),
    }
}

/// The balance told by a balance read of `user`, or the problem.
pub(super) fn expect_balance(observed: &ProbeObserved, user: &str) -> Result<(i64, Currency), String> {
    match read_balance(observed.transport(), user) {
        BalanceReading::Balance { balance, currency } => Ok((balance, currency)),
        other => Err(format!("expected a balance, the platform read: {other:?}")),
    }
}

/// `Ok` when a balance read is the refusal `code`.
pub(super) fn expect_balance_refusal(observed: &ProbeObserved, user: &str, code: RefusalCode) -> Result<(), String> {
    match read_balance(observed.transport(), user) {
        BalanceReading::Refused { code: got } if got == code => Ok(()),
        other => Err(format!("expected the refusal `{code}`, the platform read: {other:?}")),
    }
}

/// What came back, in words.
pub(super) fn received(observed: &ProbeObserved) -> String {
    match observed {
        ProbeObserved::NotSent => "not sent: the connection could not be established".into(),
        ProbeObserved::TimedOut => "no complete answer within the timeout".into(),
        ProbeObserved::LostAfterSend => "the connection was lost before a complete answer".into(),
        ProbeObserved::Answered { status, body } => format!("{status} {}", String::from_utf8_lossy(body)),
    }
}
