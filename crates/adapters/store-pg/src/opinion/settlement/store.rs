//! `SettlementStore` for `PgStore`: each method is one query or one transaction, written
//! in the file of its concern (`resolution.rs`, `wallet_worker.rs`, `review.rs`).

use async_trait::async_trait;
use opinion_app::model::{Redemption, WalletOperationRecord, WalletOperationStep};
use opinion_app::opinion::settlement::ports::{MarketOperator, RedeemablePosition, ResolutionPlan, SettlementStore};
use opinion_app::ports::StoreError;
use opinion_core::{MarketId, OperatorId, RedemptionId, WalletOperationId};
use time::{Duration, OffsetDateTime};

use crate::db::pool::PgStore;
use crate::opinion::settlement::{resolution, review, wallet_worker};

#[async_trait]
impl SettlementStore for PgStore {
    async fn count_open_trades(&self, market: MarketId) -> Result<i64, StoreError> {
        resolution::count_open_trades(self, market).await
    }

    async fn market_operators(&self, market: MarketId) -> Result<Vec<MarketOperator>, StoreError> {
        resolution::market_operators(self, market).await
    }

    async fn unredeemed_positions(&self, market: MarketId) -> Result<Vec<RedeemablePosition>, StoreError> {
        resolution::unredeemed_positions(self, market).await
    }

    async fn resolve_market(&self, plan: &ResolutionPlan) -> Result<(), StoreError> {
        resolution::resolve_market(self, plan).await
    }

    async fn operators_with_wallet_work(
        &self,
        now: OffsetDateTime,
        grace: Duration,
    ) -> Result<Vec<OperatorId>, StoreError> {
        wallet_worker::operators_with_wallet_work(self, now, grace).await
    }

    async fn claim_due_operations(
        &self,
        operator: OperatorId,
        now: OffsetDateTime,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        wallet_worker::claim_due_operations(self, operator, now, limit).await
    }

    async fn stale_sent_operations(
        &self,
        operator: OperatorId,
        sent_before: OffsetDateTime,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        wallet_worker::stale_sent_operations(self, operator, sent_before, limit).await
    }

    async fn operations_in_review(
        &self,
        operator: Option<OperatorId>,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        review::operations_in_review(self, operator, limit).await
    }

    async fn find_operation_by_id(&self, id: WalletOperationId) -> Result<Option<WalletOperationRecord>, StoreError> {
        review::find_operation_by_id(self, id).await
    }

    async fn operation_steps(
        &self,
        operator: OperatorId,
        id: WalletOperationId,
    ) -> Result<Vec<WalletOperationStep>, StoreError> {
        review::operation_steps(self, operator, id).await
    }

    async fn find_redemption(&self, operator: OperatorId, id: RedemptionId) -> Result<Option<Redemption>, StoreError> {
        review::find_redemption(self, operator, id).await
    }
}
