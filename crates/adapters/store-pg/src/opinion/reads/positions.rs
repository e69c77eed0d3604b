//! A player's positions, each with its market and the operator's pool.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::opinion::reads::ports::HeldPosition;
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, UserId};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::schema::{markets, positions};
use crate::opinion::trading::finds::{operator_market, operator_visibility};
use crate::opinion::trading::rows::{OperatorMarketRow, PositionRow};

/// Every position of the player, newest market first (a player holds positions in at
/// most as many markets as exist, so this is not paged).
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    user: UserId,
) -> Result<Vec<HeldPosition>, StoreError> {
    let rows: Vec<(PositionRow, OperatorMarketRow)> = positions::table
        .inner_join(markets::table.on(markets::id.eq(positions::market_id)))
        .left_join(operator_market(uuid_of(operator)))
        .left_join(operator_visibility(uuid_of(operator)))
        .filter(positions::operator_id.eq(uuid_of(operator)))
        .filter(positions::user_id.eq(uuid_of(user)))
        .select((PositionRow::as_select(), OperatorMarketRow::as_select()))
        .order(markets::id.desc())
        .load(conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter()
        .map(|(position, market)| {
            Ok(HeldPosition {
                position: position.into_record()?,
                market: market.into_record()?,
            })
        })
        .collect()
}
