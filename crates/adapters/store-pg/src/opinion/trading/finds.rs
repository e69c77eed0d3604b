//! What the trading store and the operator's reads both find: one market as an operator
//! sees it, through `markets LEFT JOIN market_pools` on the operator's own pool row
//! (none means an empty, visible pool), and a player's position in one market.

use diesel::dsl::auto_type;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{OperatorMarket, PositionRecord};
use opinion_app::ports::StoreError;
use opinion_core::{MarketId, OperatorId, UserId};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::schema::{market_pools, market_visibility_settings, markets, positions};
use crate::opinion::trading::rows::{OperatorMarketRow, PositionRow};

/// `operator`'s pool on the market being read, for a `LEFT JOIN`.
#[auto_type]
pub(crate) fn operator_market(operator: Uuid) -> _ {
    market_pools::table.on(market_pools::market_id
        .eq(markets::id)
        .and(market_pools::operator_id.eq(operator)))
}

/// `operator`'s visibility settings, for a `LEFT JOIN` beside its pool.
#[auto_type]
pub(crate) fn operator_visibility(operator: Uuid) -> _ {
    market_visibility_settings::table.on(market_visibility_settings::operator_id.eq(operator))
}

/// One market with the operator's pool and visibility mode.
pub(crate) async fn find_operator_market(
    mut conn: &AsyncPgConnection,
    operator: OperatorId,
    id: MarketId,
) -> Result<Option<OperatorMarket>, StoreError> {
    markets::table
        .left_join(operator_market(uuid_of(operator)))
        .left_join(operator_visibility(uuid_of(operator)))
        .filter(markets::id.eq(uuid_of(id)))
        .select(OperatorMarketRow::as_select())
        .first(&mut conn)
        .await
        .optional()
        .map_err(from_diesel)?
        .map(OperatorMarketRow::into_record)
        .transpose()
}

/// The player's position in one market.
pub(crate) async fn find_position(
    mut conn: &AsyncPgConnection,
    operator: OperatorId,
    user: UserId,
    market: MarketId,
) -> Result<Option<PositionRecord>, StoreError> {
    positions::table
        .find((uuid_of(operator), uuid_of(user), uuid_of(market)))
        .select(PositionRow::as_select())
        .first(&mut conn)
        .await
        .optional()
        .map_err(from_diesel)?
        .map(PositionRow::into_record)
        .transpose()
}
