//! The operator's trades, each with the operator's id of its player.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::Trade;
use opinion_app::opinion::reads::ports::TradeFilter;
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, TradeId, TradeKind};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::trades;
use crate::opinion::reads::users as players;
use crate::opinion::trading::rows::TradeRow;

/// One page of trades, newest first.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &TradeFilter,
    page: PageRequest<TradeKind>,
) -> Result<Page<Trade, TradeKind>, StoreError> {
    let operator = uuid_of(operator);
    let mut query = trades::table
        .filter(trades::operator_id.eq(operator))
        .select(TradeRow::as_select())
        .order(trades::id.desc())
        .into_boxed();
    if let Some(external) = &filter.external_user_id {
        query = query.filter(
            trades::user_id
                .nullable()
                .eq(players::id_known_as(operator, external.clone())),
        );
    }
    if let Some(market) = filter.market_id {
        query = query.filter(trades::market_id.eq(uuid_of(market)));
    }
    if let Some(status) = filter.status {
        query = query.filter(trades::status.eq(status.as_str()));
    }
    if let Some(side) = filter.side {
        query = query.filter(trades::side.eq(side.as_str()));
    }
    if let Some(from) = filter.created.from {
        query = query.filter(trades::created_at.ge(from));
    }
    if let Some(to) = filter.created.to {
        query = query.filter(trades::created_at.lt(to));
    }
    if let Some(after) = page.after {
        query = query.filter(trades::id.lt(uuid_of(after.position())));
    }
    let rows = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let trades = rows
        .into_iter()
        .map(TradeRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(trades, page.limit, |trade: &Trade| trade.id))
}

/// One trade.
pub(super) async fn find(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    id: TradeId,
) -> Result<Option<Trade>, StoreError> {
    trades::table
        .find((uuid_of(operator), uuid_of(id)))
        .select(TradeRow::as_select())
        .first(conn)
        .await
        .optional()
        .map_err(from_diesel)?
        .map(TradeRow::into_record)
        .transpose()
}

#[cfg(test)]
mod plan_tests;
