//! `MarketStore` for PostgreSQL: platform-wide markets, each operator's view of them
//! (`trading/finds.rs`), staff's list (`settlement/resolution.rs`) and each operator's
//! visibility mode and per-market choices (`visibility.rs`).

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::model::{Market, OperatorMarket};
use opinion_app::opinion::ports::{MarketStore, VisibilitySettings, VisibilityWrite};
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::{MarketId, OperatorId};
use opinion_market::{MarketChoice, MarketStatus};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::markets;
use crate::opinion::settlement::resolution;
use crate::opinion::trading::finds::find_operator_market;
use crate::opinion::trading::rows::MarketRow;
use crate::opinion::trading::write_rows::NewMarketRow;
use crate::opinion::visibility;

#[async_trait]
impl MarketStore for PgStore {
    #[tracing::instrument(skip_all, fields(market_id = %market.id))]
    async fn insert_market(&self, market: &Market) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(markets::table)
            .values(NewMarketRow::new(market))
            .execute(&mut conn)
            .await
            .map(drop)
            .map_err(from_diesel)
    }

    #[tracing::instrument(skip_all, fields(market_id = %market.id))]
    async fn update_market_status(&self, market: &Market, expected: MarketStatus) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        let changed = diesel::update(
            markets::table
                .find(uuid_of(market.id))
                .filter(markets::status.eq(expected.as_str())),
        )
        .set((
            markets::status.eq(market.status.as_str()),
            markets::resolution.eq(market.status.resolution().map(|r| r.as_str())),
            markets::closed_at.eq(market.closed_at),
            markets::resolved_at.eq(market.resolved_at),
        ))
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
        if changed == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict(ChangedRecord::Market))
        }
    }

    #[tracing::instrument(skip_all, fields(market_id = %id))]
    async fn find_market(&self, id: MarketId) -> Result<Option<Market>, StoreError> {
        let mut conn = self.conn().await?;
        markets::table
            .find(uuid_of(id))
            .select(MarketRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(MarketRow::into_record)
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, market_id = %id))]
    async fn find_operator_market(
        &self,
        operator: OperatorId,
        id: MarketId,
    ) -> Result<Option<OperatorMarket>, StoreError> {
        find_operator_market(&*self.shared_conn().await?, operator, id).await
    }

    async fn list_markets(&self, limit: u16) -> Result<Vec<Market>, StoreError> {
        resolution::list_markets(self, limit).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn visibility_settings(&self, operator: OperatorId) -> Result<VisibilitySettings, StoreError> {
        let mut conn = self.conn().await?;
        visibility::settings(&mut conn, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn market_choices(&self, operator: OperatorId) -> Result<Vec<(MarketId, MarketChoice)>, StoreError> {
        let mut conn = self.conn().await?;
        visibility::choices(&mut conn, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, market_id = %market, choice = %choice))]
    async fn set_market_choice(
        &self,
        operator: OperatorId,
        market: MarketId,
        choice: MarketChoice,
        write: &VisibilityWrite,
    ) -> Result<Option<OperatorMarket>, StoreError> {
        PgStore::set_market_choice(self, operator, market, choice, write).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, mode = %write.mode))]
    async fn set_visibility_mode(&self, operator: OperatorId, write: &VisibilityWrite) -> Result<(), StoreError> {
        PgStore::set_visibility_mode(self, operator, write).await
    }
}
