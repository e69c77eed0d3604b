//! `OperatorReadStore` for `PgStore`: each method is one query, written in the file of
//! its resource in this folder, or in `trading/finds.rs` for the market and position the
//! trading store finds too.

use async_trait::async_trait;
use opinion_app::model::{
    MarketResolution, OperatorMarket, PositionRecord, Redemption, Trade, User, WalletOperationRecord,
    WalletOperationStep,
};
use opinion_app::opinion::reads::ports::{
    DailyTrading, HeldPosition, MarketActivity, MarketFilter, OperatorReadStore, RedemptionFilter, ResolutionFilter,
    TradeFilter, UserFilter, WalletOperationFilter,
};
use opinion_app::ports::StoreError;
use opinion_core::{
    MarketId, MarketKind, OperatorId, Page, PageRequest, RedemptionKind, TradeId, TradeKind, UserId, UserKind,
    WalletOperationId, WalletOperationKind,
};
use time::OffsetDateTime;

use crate::db::pool::PgStore;
use crate::opinion::reads::{activity, markets, payouts, positions, trades, trending, users, wallet_operations};
use crate::opinion::trading::finds::{find_operator_market, find_position};

#[async_trait]
impl OperatorReadStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_users(
        &self,
        operator: OperatorId,
        filter: &UserFilter,
        page: PageRequest<UserKind>,
    ) -> Result<Page<User, UserKind>, StoreError> {
        users::list(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_user_by_external_id(
        &self,
        operator: OperatorId,
        external_user_id: &str,
    ) -> Result<Option<User>, StoreError> {
        users::find_by_external_id(&mut *self.conn().await?, operator, external_user_id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, user_id = %id))]
    async fn find_user(&self, operator: OperatorId, id: UserId) -> Result<Option<User>, StoreError> {
        users::find(&mut *self.conn().await?, operator, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, user_id = %user))]
    async fn list_positions(&self, operator: OperatorId, user: UserId) -> Result<Vec<HeldPosition>, StoreError> {
        positions::list(&mut *self.conn().await?, operator, user).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, user_id = %user, market_id = %market))]
    async fn find_position(
        &self,
        operator: OperatorId,
        user: UserId,
        market: MarketId,
    ) -> Result<Option<PositionRecord>, StoreError> {
        find_position(&*self.shared_conn().await?, operator, user, market).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_markets(
        &self,
        operator: OperatorId,
        filter: &MarketFilter,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<OperatorMarket, MarketKind>, StoreError> {
        markets::list(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, market_id = %id))]
    async fn find_market(&self, operator: OperatorId, id: MarketId) -> Result<Option<OperatorMarket>, StoreError> {
        find_operator_market(&*self.shared_conn().await?, operator, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn market_activity(
        &self,
        operator: OperatorId,
        since: OffsetDateTime,
    ) -> Result<Vec<MarketActivity>, StoreError> {
        trending::activity(&mut *self.conn().await?, operator, since).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn daily_trading(&self, operator: OperatorId, from: OffsetDateTime) -> Result<Vec<DailyTrading>, StoreError> {
        activity::daily(&mut *self.conn().await?, operator, from).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn manual_reviews_open(&self, operator: OperatorId) -> Result<u64, StoreError> {
        activity::reviews(&mut *self.conn().await?, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_trades(
        &self,
        operator: OperatorId,
        filter: &TradeFilter,
        page: PageRequest<TradeKind>,
    ) -> Result<Page<Trade, TradeKind>, StoreError> {
        trades::list(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, trade_id = %id))]
    async fn find_trade(&self, operator: OperatorId, id: TradeId) -> Result<Option<Trade>, StoreError> {
        trades::find(&mut *self.conn().await?, operator, id).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, trade_id = %trade))]
    async fn list_trade_wallet_operations(
        &self,
        operator: OperatorId,
        trade: TradeId,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        wallet_operations::of_trade(&mut *self.conn().await?, operator, trade).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_resolutions(
        &self,
        operator: OperatorId,
        filter: &ResolutionFilter,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<MarketResolution, MarketKind>, StoreError> {
        payouts::resolutions(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_redemptions(
        &self,
        operator: OperatorId,
        filter: &RedemptionFilter,
        page: PageRequest<RedemptionKind>,
    ) -> Result<Page<Redemption, RedemptionKind>, StoreError> {
        payouts::redemptions(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_wallet_operations(
        &self,
        operator: OperatorId,
        filter: &WalletOperationFilter,
        page: PageRequest<WalletOperationKind>,
    ) -> Result<Page<WalletOperationRecord, WalletOperationKind>, StoreError> {
        wallet_operations::list(&mut *self.conn().await?, operator, filter, page).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, operations = operations.len()))]
    async fn list_wallet_operation_steps(
        &self,
        operator: OperatorId,
        operations: &[WalletOperationId],
    ) -> Result<Vec<(WalletOperationId, WalletOperationStep)>, StoreError> {
        wallet_operations::steps(&mut *self.conn().await?, operator, operations).await
    }
}
