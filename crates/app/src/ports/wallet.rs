//! The operator's wallet adapter, as the use cases see it: where it is, one call that
//! sends a mutation and reports what its answer means, and a balance read. How the calls
//! are made (HTTP, signatures, headers) is the adapter's business and
//! `docs/wallet-adapter.md`'s.

use std::time::Duration;

use async_trait::async_trait;
use opinion_core::OperatorId;
use opinion_wallet::{BalanceReading, Classification, WalletMutation};
use opinion_webhook::SigningSecret;

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
}

/// Operators' wallet adapter configurations, as the callers of wallets read them.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WalletAdapterStore: Send + Sync {
    /// The operator's wallet adapter, if it configured one.
    async fn find_wallet_target(&self, operator: OperatorId) -> Result<Option<WalletAdapterTarget>, StoreError>;
}
