//! The operator's wallet adapter, as the use cases see it: where it is, one call that
//! sends a mutation and reports what its answer means, and a balance read. How the calls
//! are made (HTTP, signatures, headers) is the adapter's business and
//! `docs/operator/wallet-adapter.md`'s.

use std::time::Duration;

use async_trait::async_trait;
use opinion_core::{OperatorId, WalletTestRunId};
use opinion_wallet::{BalanceReading, Classification, TransportOutcome, WalletMutation};
use opinion_webhook::SigningSecret;
use time::OffsetDateTime;

use crate::model::WalletAdapterConfig;
use crate::ports::StoreError;

/// Where and how to call one operator's wallet adapter.
#[derive(Debug, Clone)]
pub struct WalletAdapterTarget {
    /// The operator it belongs to.
    pub operator_id: OperatorId,
    /// The adapter's base URL (`https://wallet.example.com/opinion`), without a trailing slash.
    pub base_url: String,
    /// How long one call may take, connecting included, before it counts as timed out.
    pub timeout: Duration,
    /// The secrets that sign each call, current first; two during a rotation overlap.
    pub signing_secrets: Vec<SigningSecret>,
}

/// What one mutation call came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MutationOutcome {
    /// What the answer means (applied, rejected, ambiguous, not sent).
    pub classification: Classification,
    /// The HTTP status of the answer, when one arrived.
    pub http_status: Option<u16>,
    /// How long the call took.
    pub elapsed: Duration,
}

/// What one balance read came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceOutcome {
    /// The balance, a refusal, or why there is none.
    pub reading: BalanceReading,
    /// The HTTP status of the answer, when one arrived.
    pub http_status: Option<u16>,
    /// How long the call took.
    pub elapsed: Duration,
}

/// Which call of the contract a probe makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbePath {
    /// `POST {baseUrl}/v1/mutations`.
    Mutations,
    /// `POST {baseUrl}/v1/balance`.
    Balance,
}

/// How a probe is signed.
#[derive(Debug, Clone)]
pub enum ProbeSigning {
    /// With the target's signing secrets, as every real call.
    Configured,
    /// With this secret instead (one the wallet does not know).
    With(SigningSecret),
}

/// One exact call of the wallet test: the body fields as given (the client adds only
/// `requestedAt`), this `webhook-id`, this `Idempotency-Key`, this signing.
#[derive(Debug, Clone)]
pub struct WalletProbe {
    /// The call.
    pub path: ProbePath,
    /// The `webhook-id` header.
    pub message_id: String,
    /// The `Idempotency-Key` header, if one is sent.
    pub idempotency_key: Option<String>,
    /// The body's fields but `requestedAt`.
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// Whose secret signs.
    pub signing: ProbeSigning,
    /// Seconds added to the signature's timestamp (negative: in the past).
    pub timestamp_shift_secs: i64,
}

/// What a probe observed, owning the answer's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeObserved {
    /// Provably not sent.
    NotSent,
    /// No complete answer in time.
    TimedOut,
    /// The connection broke before a complete answer.
    LostAfterSend,
    /// A complete answer.
    Answered {
        /// The status.
        status: u16,
        /// The body (empty when larger than the client reads).
        body: Vec<u8>,
    },
}

impl ProbeObserved {
    /// The outcome, for classification.
    pub fn transport(&self) -> TransportOutcome<'_> {
        match self {
            Self::NotSent => TransportOutcome::NotSent,
            Self::TimedOut => TransportOutcome::TimedOut,
            Self::LostAfterSend => TransportOutcome::ConnectionLostAfterSend,
            Self::Answered { status, body } => TransportOutcome::Answered { status: *status, body },
        }
    }
}

/// What one probe came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeOutcome {
    /// The exact body sent.
    pub sent_body: String,
    /// What came back.
    pub observed: ProbeObserved,
    /// How long the call took.
    pub elapsed: Duration,
}

/// Calls operators' wallet adapters.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WalletGateway: Send + Sync {
    /// Sends `mutation` once, signed, with its idempotency key, and classifies the answer.
    /// Never retries by itself and never looks anything up: what happens next is the
    /// use case's decision (contract rules 3 and 4).
    async fn mutate(&self, target: &WalletAdapterTarget, mutation: &WalletMutation) -> MutationOutcome;

    /// Reads the balance of the operator's player `external_user_id`, once, signed.
    /// Changes nothing, so any failure is only a failure to read.
    async fn balance(&self, target: &WalletAdapterTarget, external_user_id: &str) -> BalanceOutcome;

    /// Sends exactly the probe's call, once, and reports what it observed without
    /// interpreting it. Only the full-contract wallet test uses it, to send what real
    /// calls never send (a reused key with another payload, a missing metadata key, a
    /// wrong signature); trading never does.
    async fn probe(&self, target: &WalletAdapterTarget, probe: &WalletProbe) -> ProbeOutcome;
}

/// Operators' wallet adapter configurations, as the callers of wallets read them.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WalletAdapterStore: Send + Sync {
    /// The operator's wallet adapter, if it configured one.
    async fn find_wallet_target(&self, operator: OperatorId) -> Result<Option<WalletAdapterTarget>, StoreError>;

    /// The operator's configuration, if it has one.
    async fn find_wallet_adapter(&self, operator: OperatorId) -> Result<Option<WalletAdapterConfig>, StoreError>;

    /// Writes `config` if the stored revision is still `expected` (`None`: if the
    /// operator has none yet). `Ok(false)` when another change came first; nothing is
    /// written then.
    async fn save_wallet_adapter(
        &self,
        config: &WalletAdapterConfig,
        expected: Option<i64>,
    ) -> Result<bool, StoreError>;
}

/// One run of the full-contract wallet test as kept: what it ran against, its verdict
/// per product and its whole report.
#[derive(Debug, Clone, PartialEq)]
pub struct WalletTestRun {
    pub id: WalletTestRunId,
    pub operator_id: OperatorId,
    /// When the run started.
    pub ran_at: OffsetDateTime,
    /// The adapter's base URL it ran against.
    pub base_url: String,
    /// Whether every Opinion check passed.
    pub opinion_passed: bool,
    /// Whether every check of the flight section (native-IDR reasons) passed.
    pub flight_passed: bool,
    /// The report as the operator received it, as JSON.
    pub report: serde_json::Value,
}

/// The kept runs of the wallet test: the evidence that enabling the flight product
/// checks.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WalletTestRunStore: Send + Sync {
    /// Keeps one run.
    async fn record_wallet_test_run(&self, run: &WalletTestRun) -> Result<(), StoreError>;

    /// The operator's latest run (by start, then id), if it ran the test at all.
    async fn latest_wallet_test_run(&self, operator: OperatorId) -> Result<Option<WalletTestRun>, StoreError>;
}

/// Whether flight money may move for an operator now (FLIGHT.md §3): outside production
/// always, in production only while the operator holds a valid production
/// authorization. The flight game answers it; the wallet test asks it before its flight
/// section, so that section makes no wallet call for an operator the flight game would
/// not let move money.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait FlightMoneyGate: Send + Sync {
    /// Whether a flight wallet call may be made for `operator` at this instant.
    async fn flight_money_may_move(&self, operator: OperatorId) -> Result<bool, StoreError>;
}
