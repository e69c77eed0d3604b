//! The operator's tickets, newest first. A player filter is the player's id looked up
//! once, so the query walks the player's tickets by index.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::model::TicketRecord;
use opinion_app::flight::reads::ports::TicketFilter;
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, TicketKind};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::flight_tickets;
use crate::flight::rows::TicketRow;
use crate::opinion::reads::users::id_known_as;

/// One page of the operator's tickets, newest first.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &TicketFilter,
    page: PageRequest<TicketKind>,
) -> Result<Page<TicketRecord, TicketKind>, StoreError> {
    let operator = uuid_of(operator);
    let mut query = flight_tickets::table
        .filter(flight_tickets::operator_id.eq(operator))
        .select(TicketRow::as_select())
        .order(flight_tickets::id.desc())
        .into_boxed();
    if let Some(external) = &filter.external_user_id {
        query = query.filter(
            flight_tickets::user_id
                .nullable()
                .eq(id_known_as(operator, external.clone())),
        );
    }
    if let Some(flight) = filter.flight_id {
        query = query.filter(flight_tickets::flight_id.eq(uuid_of(flight)));
    }
    if let Some(status) = filter.status {
        query = query.filter(flight_tickets::status.eq(status.as_str()));
    }
    if let Some(from) = filter.purchased.from {
        query = query.filter(flight_tickets::created_at.ge(from));
    }
    if let Some(to) = filter.purchased.to {
        query = query.filter(flight_tickets::created_at.lt(to));
    }
    if let Some(after) = page.after {
        query = query.filter(flight_tickets::id.lt(uuid_of(after.position())));
    }
    let rows: Vec<TicketRow> = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let tickets = rows
        .into_iter()
        .map(TicketRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(tickets, page.limit, |ticket: &TicketRecord| {
        ticket.id
    }))
}
