//! Pages of markets as one operator sees them, through the operator's pool join
//! (`trading::finds::operator_market`).

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::OperatorMarket;
use opinion_app::opinion::reads::ports::MarketFilter;
use opinion_app::ports::StoreError;
use opinion_core::{MarketKind, OperatorId, Page, PageRequest};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::schema::{market_pools, markets};
use crate::opinion::reads::page::overfetch;
use crate::opinion::trading::finds::operator_market;
use crate::opinion::trading::rows::OperatorMarketRow;

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
