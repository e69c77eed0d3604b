//! `TradeStore` for PostgreSQL: the atomic step (`apply.rs`) and the finds of the write
//! path. Every tenant query names the operator.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::model::PositionRecord;
use opinion_app::opinion::trading::ports::{OpenTrade, TradeStore, TradingChange};
use opinion_app::ports::StoreError;
use opinion_core::{MarketId, OperatorId, TradeId, UserId};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::trades;
use crate::opinion::trading::finds::find_position;
use crate::opinion::trading::rows::TradeRow;
use crate::opinion::trading::write_rows::position_from_json;

/// A trade row with the position kept before a sale.
fn open_trade((row, position_before): (TradeRow, Option<serde_json::Value>)) -> Result<OpenTrade, StoreError> {
    let trade = row.into_record()?;
    let position_before = position_before
        .map(|value| position_from_json(uuid_of(trade.id), &value))
        .transpose()?;
    Ok(OpenTrade { trade, position_before })
}

#[async_trait]
impl TradeStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn apply(&self, operator: OperatorId, change: &TradingChange) -> Result<(), StoreError> {
        self.apply_trading_change(operator, change).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_position(
        &self,
        operator: OperatorId,
        user: UserId,
        market: MarketId,
    ) -> Result<Option<PositionRecord>, StoreError> {
        find_position(&*self.shared_conn().await?, operator, user, market).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_trade_by_client_order(
        &self,
        operator: OperatorId,
        user: UserId,
        client_order_id: &str,
    ) -> Result<Option<OpenTrade>, StoreError> {
        let conn = self.shared_conn().await?;
        trades::table
            .filter(trades::operator_id.eq(uuid_of(operator)))
            .filter(trades::user_id.eq(uuid_of(user)))
            .filter(trades::client_order_id.eq(client_order_id))
            .select((TradeRow::as_select(), trades::position_before))
            .first(&mut &*conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(open_trade)
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, trade_id = %id))]
    async fn find_trade(&self, operator: OperatorId, id: TradeId) -> Result<Option<OpenTrade>, StoreError> {
        let mut conn = self.conn().await?;
        trades::table
            .find((uuid_of(operator), uuid_of(id)))
            .select((TradeRow::as_select(), trades::position_before))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(open_trade)
            .transpose()
    }
}
