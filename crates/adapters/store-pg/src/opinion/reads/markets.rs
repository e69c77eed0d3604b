//! Markets as one operator sees them: `markets LEFT JOIN market_pools` on the
//! operator's own pool row (none means an empty, visible pool).

use diesel::dsl::auto_type;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::OperatorMarket;
use opinion_app::ports::{MarketFilter, StoreError};
use opinion_core::{MarketId, MarketKind, OperatorId, Page, PageRequest};
use uuid::Uuid;

use super::overfetch;
use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::schema::{market_pools, markets};
use crate::opinion::trading::rows::OperatorMarketRow;

/// `operator`'s pool on the market being read, for a `LEFT JOIN`.
#[auto_type]
pub(crate) fn operator_market(operator: Uuid) -> _ {
    market_pools::table.on(market_pools::market_id
        .eq(markets::id)
        .and(market_pools::operator_id.eq(operator)))
}

/// One page of markets, newest first.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &MarketFilter,
    page: PageRequest<MarketKind>,
) -> Result<Page<OperatorMarket, MarketKind>, StoreError> {
    let mut query = markets::table
        .left_join(operator_market(uuid_of(operator)))
        .select(OperatorMarketRow::as_select())
        .order(markets::id.desc())
        .limit(overfetch(&page))
        .into_boxed();
    if let Some(stage) = filter.stage {
        query = query.filter(markets::status.eq(stage.as_str()));
    }
    match filter.hidden {
        Some(true) => query = query.filter(market_pools::hidden.nullable().eq(true)),
        Some(false) => query = query.filter(market_pools::hidden.nullable().is_distinct_from(true)),
        None => {}
    }
    if let Some(after) = page.after {
        query = query.filter(markets::id.lt(uuid_of(after.position())));
    }
    let rows = query.load(conn).await.map_err(from_diesel)?;
    let markets = rows
        .into_iter()
        .map(OperatorMarketRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(markets, page.limit, |market: &OperatorMarket| {
        market.market.id
    }))
}

/// One market with the operator's pool.
pub(crate) async fn find(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    id: MarketId,
) -> Result<Option<OperatorMarket>, StoreError> {
    markets::table
        .left_join(operator_market(uuid_of(operator)))
        .filter(markets::id.eq(uuid_of(id)))
        .select(OperatorMarketRow::as_select())
        .first(conn)
        .await
        .optional()
        .map_err(from_diesel)?
        .map(OperatorMarketRow::into_record)
        .transpose()
}
