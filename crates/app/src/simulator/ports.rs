//! The staging simulator's store: simulated users, the simulated wallet's keys and log,
//! and the markets the simulator created. The wallet's rules are the domain's
//! (`opinion_wallet::wallet_rules`); this port only reads and writes their state, with
//! compare-and-set writes so several instances share one simulated wallet.

use async_trait::async_trait;
use opinion_core::SimulatorUserKind;
use opinion_core::{MarketId, OperatorId, Page, PageRequest, SimulatorLogId, SimulatorLogKind, SimulatorUserId};
use opinion_wallet::{IdempotencyKey, KeyRecord, RequestFingerprint, WalletAnswer};
use time::OffsetDateTime;

use crate::model::{LogDelivery, SimulatedFault, SimulatedUser, WalletLogEntry};
use crate::ports::StoreError;

/// A balance change that is written only if the balance is still `before`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceMove {
    /// The player.
    pub external_user_id: String,
    /// The balance the change was computed from.
    pub before: i64,
    /// The balance after it.
    pub after: i64,
}

/// The answer recorded under a key in progress, with the balance change it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettledKey {
    pub operator_id: OperatorId,
    pub key: IdempotencyKey,
    /// The answer given.
    pub answer: WalletAnswer,
    /// The balance change, when the mutation applied.
    pub balance: Option<BalanceMove>,
    /// When.
    pub at: OffsetDateTime,
}

/// The simulator's state.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait SimulatorStore: Send + Sync {
    /// Adds a simulated user; `Duplicate("simulated_user")` when its external id is taken.
    async fn insert_simulated_user(&self, user: &SimulatedUser) -> Result<(), StoreError>;

    /// The operator's simulated users, newest first.
    async fn list_simulated_users(
        &self,
        operator: OperatorId,
        page: PageRequest<SimulatorUserKind>,
    ) -> Result<Page<SimulatedUser, SimulatorUserKind>, StoreError>;

    /// One simulated user of the operator.
    async fn find_simulated_user(
        &self,
        operator: OperatorId,
        id: SimulatorUserId,
    ) -> Result<Option<SimulatedUser>, StoreError>;

    /// One simulated user of the operator, by the operator's id of the player.
    async fn find_simulated_user_by_external(
        &self,
        operator: OperatorId,
        external_user_id: &str,
    ) -> Result<Option<SimulatedUser>, StoreError>;

    /// Writes `user` whole if its stored revision is still `expected`; `Ok(false)` otherwise.
    async fn update_simulated_user(&self, user: &SimulatedUser, expected: i64) -> Result<bool, StoreError>;

    /// Takes the first queued fault of the player, if it has one.
    async fn take_fault(
        &self,
        operator: OperatorId,
        external_user_id: &str,
    ) -> Result<Option<SimulatedFault>, StoreError>;

    /// What is recorded under a key.
    async fn find_wallet_key(
        &self,
        operator: OperatorId,
        key: &IdempotencyKey,
    ) -> Result<Option<KeyRecord>, StoreError>;

    /// Records a new key as in progress; `Ok(false)` when the key is recorded already.
    async fn claim_wallet_key(
        &self,
        operator: OperatorId,
        key: &IdempotencyKey,
        fingerprint: &RequestFingerprint,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError>;

    /// Frees a key still in progress (nothing applied, nothing recorded).
    async fn release_wallet_key(&self, operator: OperatorId, key: &IdempotencyKey) -> Result<(), StoreError>;

    /// Records the answer of a key in progress and its balance change, in one
    /// transaction; `Ok(false)` (nothing written) when the balance is no longer `before`.
    async fn settle_wallet_key(&self, settled: &SettledKey) -> Result<bool, StoreError>;

    /// Adds an entry to the wallet log.
    async fn append_wallet_log(&self, entry: &WalletLogEntry) -> Result<(), StoreError>;

    /// Records what became of a logged request.
    async fn finish_wallet_log(
        &self,
        operator: OperatorId,
        id: SimulatorLogId,
        applied: bool,
        delivery: &LogDelivery,
        at: OffsetDateTime,
    ) -> Result<(), StoreError>;

    /// The wallet log of one player, newest first.
    async fn wallet_log(
        &self,
        operator: OperatorId,
        external_user_id: &str,
        page: PageRequest<SimulatorLogKind>,
    ) -> Result<Page<WalletLogEntry, SimulatorLogKind>, StoreError>;

    /// Records that the operator's simulator created `market`.
    async fn record_simulator_market(
        &self,
        operator: OperatorId,
        market: MarketId,
        at: OffsetDateTime,
    ) -> Result<(), StoreError>;

    /// Whether the operator's simulator created `market`.
    async fn is_simulator_market(&self, operator: OperatorId, market: MarketId) -> Result<bool, StoreError>;
}
