//! `SimulatorStore` for `PgStore`: each method is one query or one transaction, written
//! in the file of its concern (`users.rs`, `wallet.rs`).

use async_trait::async_trait;
use opinion_app::model::{SimulatedFault, SimulatedUser};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, SimulatorUserId, SimulatorUserKind};
use time::OffsetDateTime;

use crate::db::pool::PgStore;

#[async_trait]
impl opinion_app::simulator::ports::SimulatorStore for PgStore {
    async fn insert_simulated_user(&self, user: &SimulatedUser) -> Result<(), StoreError> {
        self.insert_simulated(user).await
    }

    async fn list_simulated_users(
        &self,
        operator: OperatorId,
        page: PageRequest<SimulatorUserKind>,
    ) -> Result<Page<SimulatedUser, SimulatorUserKind>, StoreError> {
        self.simulated_users_page(operator, page).await
    }

    async fn find_simulated_user(
        &self,
        operator: OperatorId,
        id: SimulatorUserId,
    ) -> Result<Option<SimulatedUser>, StoreError> {
        self.find_simulated(operator, Ok(id)).await
    }

    async fn find_simulated_user_by_external(
        &self,
        operator: OperatorId,
        external_user_id: &str,
    ) -> Result<Option<SimulatedUser>, StoreError> {
        self.find_simulated(operator, Err(external_user_id)).await
    }

    async fn update_simulated_user(&self, user: &SimulatedUser, expected: i64) -> Result<bool, StoreError> {
        self.update_simulated(user, expected).await
    }

    async fn take_fault(
        &self,
        operator: OperatorId,
        external_user_id: &str,
    ) -> Result<Option<SimulatedFault>, StoreError> {
        self.pop_fault(operator, external_user_id).await
    }

    async fn find_wallet_key(
        &self,
        operator: OperatorId,
        key: &opinion_wallet::IdempotencyKey,
    ) -> Result<Option<opinion_wallet::KeyRecord>, StoreError> {
        self.wallet_key(operator, key).await
    }

    async fn claim_wallet_key(
        &self,
        operator: OperatorId,
        key: &opinion_wallet::IdempotencyKey,
        fingerprint: &opinion_wallet::RequestFingerprint,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        self.claim_key(operator, key, fingerprint, at).await
    }

    async fn release_wallet_key(
        &self,
        operator: OperatorId,
        key: &opinion_wallet::IdempotencyKey,
    ) -> Result<(), StoreError> {
        self.release_key(operator, key).await
    }

    async fn settle_wallet_key(&self, settled: &opinion_app::simulator::ports::SettledKey) -> Result<bool, StoreError> {
        self.settle_key(settled).await
    }

    async fn append_wallet_log(&self, entry: &opinion_app::model::WalletLogEntry) -> Result<(), StoreError> {
        self.append_log(entry).await
    }

    async fn finish_wallet_log(
        &self,
        operator: OperatorId,
        id: opinion_core::SimulatorLogId,
        applied: bool,
        delivery: &opinion_app::model::LogDelivery,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        self.finish_log(operator, id, applied, delivery, at).await
    }

    async fn wallet_log(
        &self,
        operator: OperatorId,
        external_user_id: &str,
        page: PageRequest<opinion_core::SimulatorLogKind>,
    ) -> Result<Page<opinion_app::model::WalletLogEntry, opinion_core::SimulatorLogKind>, StoreError> {
        self.log_page(operator, external_user_id, page).await
    }

    async fn record_simulator_market(
        &self,
        operator: OperatorId,
        market: opinion_core::MarketId,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        self.insert_simulator_market(operator, market, at).await
    }

    async fn is_simulator_market(
        &self,
        operator: OperatorId,
        market: opinion_core::MarketId,
    ) -> Result<bool, StoreError> {
        self.simulator_market_exists(operator, market).await
    }
}
