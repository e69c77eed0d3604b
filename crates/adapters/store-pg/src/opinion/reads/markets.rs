//! Pages of markets as one operator sees them, through the operator's pool join
//! (`trading::finds::operator_market`). A visibility filter reads the operator's mode
//! first and keeps the choices the domain's rule shows (or hides) under it.

use diesel::prelude::*;
use diesel::sql_types::{Nullable, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::OperatorMarket;
use opinion_app::opinion::reads::ports::MarketFilter;
use opinion_app::ports::StoreError;
use opinion_core::{MarketKind, OperatorId, Page, PageRequest};
use opinion_market::MarketChoice;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::{market_pools, markets};
use crate::opinion::trading::finds::{operator_market, operator_visibility};
use crate::opinion::trading::rows::OperatorMarketRow;
use crate::opinion::visibility;

diesel::define_sql_function! {
    /// `coalesce(choice, 'unset')`: a market without a pool row has no choice yet.
    #[sql_name = "coalesce"]
    fn choice_or_unset(choice: Nullable<Text>, unset: Text) -> Text;
}

/// The stored choice of a market's pool row, `unset` when there is none.
fn choice_of_pool(
    choice: diesel::dsl::Nullable<market_pools::choice>,
) -> choice_or_unset<diesel::dsl::Nullable<market_pools::choice>, &'static str> {
    choice_or_unset(choice, MarketChoice::Unset.as_str())
}

/// The stored names of `choices`.
fn choice_names(choices: &[MarketChoice]) -> Vec<&'static str> {
    choices.iter().map(|choice| choice.as_str()).collect()
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
        .left_join(operator_visibility(uuid_of(operator)))
        .select(OperatorMarketRow::as_select())
        .order(markets::id.desc())
        .into_boxed();
    if let Some(stage) = filter.stage {
        query = query.filter(markets::status.eq(stage.as_str()));
    }
    if let Some(hidden) = filter.hidden {
        let mode = visibility::settings(conn, operator).await?.mode;
        let choices = if hidden {
            mode.hidden_choices()
        } else {
            mode.shown_choices()
        };
        query = query.filter(choice_of_pool(market_pools::choice.nullable()).eq_any(choice_names(&choices)));
    }
    if let Some(after) = page.after {
        query = query.filter(markets::id.lt(uuid_of(after.position())));
    }
    let rows = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let markets = rows
        .into_iter()
        .map(OperatorMarketRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(markets, page.limit, |market: &OperatorMarket| {
        market.market.id
    }))
}
