//! `MarketStore` for PostgreSQL: platform-wide markets, each operator's view of them
//! (`trading/finds.rs`), staff's list (`settlement/resolution.rs`) and the visibility
//! switch (`trading/market_visibility.rs`).

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::model::{Market, NewEvent, OperatorMarket};
use opinion_app::opinion::ports::{MarketStore, VisibilityOutcome};
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::{MarketId, OperatorId};
use opinion_market::MarketStatus;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::markets;
use crate::opinion::settlement::resolution;
use crate::opinion::trading::finds::find_operator_market;
use crate::opinion::trading::market_visibility;
use crate::opinion::trading::rows::MarketRow;
use crate::opinion::trading::write_rows::NewMarketRow;

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
        let mut conn = self.conn().await?;
        find_operator_market(&mut conn, operator, id).await
    }

    async fn list_markets(&self, limit: u16) -> Result<Vec<Market>, StoreError> {
        resolution::list_markets(self, limit).await
    }

    async fn set_market_visibility(
        &self,
        operator: OperatorId,
        market: MarketId,
        hidden: bool,
        event: &NewEvent,
    ) -> Result<Option<VisibilityOutcome>, StoreError> {
        market_visibility::set_market_visibility(self, operator, market, hidden, event).await
    }
}
