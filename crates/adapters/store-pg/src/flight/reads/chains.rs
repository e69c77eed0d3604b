//! The published seed chains, newest first, each with the numbers of its first and last
//! flight: a page of chains, then one grouped read of their flights' numbers over the
//! chain-and-number index. The sealed terminal seed is never selected.

use diesel::dsl::{max, min};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::reads::ports::ChainSummary;
use opinion_app::ports::StoreError;
use opinion_core::{FlightChainId, FlightChainKind, Page, PageRequest};
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::{flight_chains, flights};
use crate::flight::rows::ChainRow;

/// One page of chains, newest first (ids are time-ordered).
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    page: PageRequest<FlightChainKind>,
) -> Result<Page<ChainSummary, FlightChainKind>, StoreError> {
    let mut query = flight_chains::table
        .select(ChainRow::as_select())
        .order(flight_chains::id.desc())
        .into_boxed();
    if let Some(after) = page.after {
        query = query.filter(flight_chains::id.lt(uuid_of(after.position())));
    }
    let rows: Vec<ChainRow> = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let summaries = summarise(conn, rows).await?;
    Ok(Page::from_overfetch(summaries, page.limit, |summary: &ChainSummary| {
        summary.chain.id
    }))
}

/// One chain.
pub(super) async fn find(conn: &mut AsyncPgConnection, id: FlightChainId) -> Result<Option<ChainSummary>, StoreError> {
    let row: Option<ChainRow> = flight_chains::table
        .find(uuid_of(id))
        .select(ChainRow::as_select())
        .first(conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    Ok(summarise(conn, row.into_iter().collect()).await?.pop())
}

/// The chains with the lowest and highest number among their flights, in their order.
async fn summarise(conn: &mut AsyncPgConnection, rows: Vec<ChainRow>) -> Result<Vec<ChainSummary>, StoreError> {
    let chains = rows
        .into_iter()
        .map(ChainRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<Uuid> = chains.iter().map(|chain| uuid_of(chain.id)).collect();
    let numbers: Vec<(Uuid, Option<i32>, Option<i32>)> = flights::table
        .filter(flights::chain_id.eq_any(&ids))
        .group_by(flights::chain_id)
        .select((flights::chain_id, min(flights::number), max(flights::number)))
        .load(conn)
        .await
        .map_err(from_diesel)?;
    let number = |chain: Uuid, value: Option<i32>| {
        value
            .map(|n| u32::try_from(n).map_err(|_| corrupt("flights", chain, &"negative number")))
            .transpose()
    };
    chains
        .into_iter()
        .map(|chain| {
            let id = uuid_of(chain.id);
            let (first, last) = numbers
                .iter()
                .find(|(of, _, _)| *of == id)
                .map_or((None, None), |(_, first, last)| (*first, *last));
            Ok(ChainSummary {
                first_flight: number(id, first)?,
                last_flight: number(id, last)?,
                chain,
            })
        })
        .collect()
}
