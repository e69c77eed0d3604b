//! Flights with their chain's public columns, newest first.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::model::FlightRecord;
use opinion_app::flight::reads::ports::FlightFilter;
use opinion_app::ports::StoreError;
use opinion_core::{FlightKind, Page, PageRequest};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::{flight_chains, flights};
use crate::flight::rows::{ChainRow, FlightRow};

/// One page of flights, newest first (ids are time-ordered, so by boarding).
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    filter: &FlightFilter,
    page: PageRequest<FlightKind>,
) -> Result<Page<FlightRecord, FlightKind>, StoreError> {
    let mut query = flights::table
        .inner_join(flight_chains::table.on(flight_chains::id.eq(flights::chain_id)))
        .select((FlightRow::as_select(), ChainRow::as_select()))
        .order(flights::id.desc())
        .into_boxed();
    if let Some(from) = filter.boarded.from {
        query = query.filter(flights::boarding_at.ge(from));
    }
    if let Some(to) = filter.boarded.to {
        query = query.filter(flights::boarding_at.lt(to));
    }
    if let Some(phase) = filter.phase {
        query = query.filter(flights::phase.eq(phase.as_str()));
    }
    if let Some(after) = page.after {
        query = query.filter(flights::id.lt(uuid_of(after.position())));
    }
    let rows: Vec<(FlightRow, ChainRow)> = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let flights = rows
        .into_iter()
        .map(|(flight, chain)| flight.into_record(&chain))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(flights, page.limit, |flight: &FlightRecord| {
        flight.id
    }))
}
