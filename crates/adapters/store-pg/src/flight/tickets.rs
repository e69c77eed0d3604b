//! Tickets: storing a new one with its purchase debit, and reading them. A new ticket is
//! decided under a lock on its player's row (`users … FOR UPDATE`), so two purchases of
//! one player are serialized and the cap of tickets per flight holds however many arrive
//! at once (the tickets a player holds are kept in `held_tickets.rs`); the flight's row
//! is read `FOR SHARE`, so a driver closing boarding waits for the purchase to commit
//! instead of missing it. In production the operator's production
//! authorizations are read `FOR SHARE` in the same transaction, so a revocation either
//! precedes the ticket (refused, nothing stored) or follows its stored debit. A repeated
//! client ticket id is not looked for here: the insert's unique key refuses it, and the
//! use case answers every refusal with the first ticket if there is one.

use diesel::expression::SqlLiteral;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::model::TicketRecord;
use opinion_app::flight::ports::{NewTicket, TicketFilter, TicketOpening};
use opinion_app::ports::StoreError;
use opinion_core::{FlightId, OperatorId, TicketId, UserId};
use opinion_flight::{FlightPhase, Multiplier, TicketStatus, may_hold_another};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::prepared::prepared;
use crate::db::schema::{flight_tickets, flights, users};
use crate::flight::held_tickets::{places, take_a_place};
use crate::flight::production_authorizations::authorized_in;
use crate::flight::rows::{TicketRow, hundredths};
use crate::opinion::trading::apply::insert_operations;

/// What the transaction of a new ticket found, before the rows are parsed.
enum Found {
    Stored,
    CapReached,
    BoardingClosed,
    NotAuthorized,
    Corrupt(StoreError),
}

pub(crate) async fn open_ticket(store: &PgStore, new: &NewTicket) -> Result<TicketOpening, StoreError> {
    let mut conn = store.conn().await?;
    let opened = conn
        .transaction::<_, DieselError, _>(async |conn| open_in(conn, new).await)
        .await
        .map_err(from_diesel)?;
    Ok(match opened {
        Found::Stored => TicketOpening::Opened,
        Found::CapReached => TicketOpening::CapReached,
        Found::BoardingClosed => TicketOpening::BoardingClosed,
        Found::NotAuthorized => TicketOpening::NotAuthorized,
        Found::Corrupt(error) => return Err(error),
    })
}

async fn open_in(conn: &mut AsyncPgConnection, new: &NewTicket) -> QueryResult<Found> {
    let ticket = &new.ticket;
    let (op, user, flight) = (
        uuid_of(ticket.operator_id),
        uuid_of(ticket.user_id),
        uuid_of(ticket.flight_id),
    );
    users::table
        .find((op, user))
        .select(users::id)
        .for_update()
        .first::<Uuid>(conn)
        .await?;
    match authorized_in(conn, op, new.production_authorization, ticket.created_at).await? {
        Ok(true) => {}
        Ok(false) => return Ok(Found::NotAuthorized),
        Err(corrupt) => return Ok(Found::Corrupt(corrupt)),
    }
    let phase: Option<String> = flights::table
        .find(flight)
        .select(flights::phase)
        .for_share()
        .first(conn)
        .await
        .optional()?;
    if phase.as_deref() != Some(FlightPhase::Boarding.as_str()) {
        return Ok(Found::BoardingClosed);
    }
    let places = places(conn, op, user, flight).await?;
    if !may_hold_another(places.held, new.cap) {
        return Ok(Found::CapReached);
    }
    // Kept prepared (by its text, which its unset columns vary): diesel would prepare and
    // plan an insert with optional columns afresh on every purchase. A repeated purchase,
    // or a twin that committed first, is refused here by the client ticket id's unique key.
    prepared(diesel::insert_into(flight_tickets::table).values(TicketRow::new(ticket)))
        .execute(conn)
        .await?;
    insert_operations(conn, std::slice::from_ref(&new.purchase)).await?;
    if ticket.status.holds_a_place() {
        take_a_place(conn, op, user, flight, &places).await?;
    }
    Ok(Found::Stored)
}

/// The player's ticket bought under `client_ticket_id` (by the unique key that makes it
/// one ticket).
#[diesel::dsl::auto_type]
fn client_ticket<'a>(op: Uuid, user: Uuid, client_ticket_id: &'a str) -> _ {
    flight_tickets::table
        .filter(flight_tickets::operator_id.eq(op))
        .filter(flight_tickets::user_id.eq(user))
        .filter(flight_tickets::client_ticket_id.eq(client_ticket_id))
}

/// The player's ticket bought under `client_ticket_id`, read when a purchase is refused:
/// a repeated purchase's answer.
pub(crate) async fn find_client_ticket(
    store: &PgStore,
    operator: OperatorId,
    user: UserId,
    client_ticket_id: &str,
) -> Result<Option<TicketRecord>, StoreError> {
    let conn = store.shared_conn().await?;
    let row: Option<TicketRow> = client_ticket(uuid_of(operator), uuid_of(user), client_ticket_id)
        .select(TicketRow::as_select())
        .first(&mut &*conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    row.map(TicketRow::into_record).transpose()
}

/// Up to `limit` of every operator's tickets of the flight in `statuses`, in the order a
/// step locks them: the driver settles a flight across operators (served by
/// `flight_tickets_open_of_flight` for open tickets). The batch is sorted here, not by
/// the statement: with an `ORDER BY` and a `LIMIT`, a generic plan may walk the primary
/// key in its order instead of reading the flight's range of the index.
pub(crate) async fn flight_tickets(
    store: &PgStore,
    flight: FlightId,
    statuses: &[TicketStatus],
    limit: u32,
) -> Result<Vec<TicketRecord>, StoreError> {
    let statuses: Vec<&str> = statuses.iter().map(|status| status.as_str()).collect();
    let mut conn = store.conn().await?;
    let rows: Vec<TicketRow> = flight_tickets::table
        .filter(flight_tickets::flight_id.eq(uuid_of(flight)))
        .filter(flight_tickets::status.eq_any(statuses))
        .limit(i64::from(limit))
        .select(TicketRow::as_select())
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    in_lock_order(rows)
}

/// The tickets of `flight` in `status` whose auto cash-out target is at most `reached`
/// (hundredths): a range of `flight_tickets_open_of_flight`.
#[diesel::dsl::auto_type]
fn due(flight: Uuid, status: SqlLiteral<Text>, reached: i64) -> _ {
    flight_tickets::table
        .filter(flight_tickets::flight_id.eq(flight))
        .filter(flight_tickets::status.eq(status))
        .filter(flight_tickets::auto_cash_out.le(reached))
}

/// Up to `limit` of every operator's active tickets of the flight whose auto cash-out
/// target is at most `reached`, in the order a step locks them (sorted here, as above):
/// a range of `flight_tickets_open_of_flight`, however many other tickets are flying.
pub(crate) async fn tickets_due(
    store: &PgStore,
    flight: FlightId,
    reached: Multiplier,
    limit: u32,
) -> Result<Vec<TicketRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<TicketRow> = prepared(
        due(uuid_of(flight), written(TicketStatus::Active), hundredths(reached))
            .limit(i64::from(limit))
            .select(TicketRow::as_select()),
    )
    .load(&mut conn)
    .await
    .map_err(from_diesel)?;
    in_lock_order(rows)
}

/// `status` written into a statement rather than bound: a generic plan can then use the
/// open tickets' partial index (`status IN ('pending', 'active')`), which a bound status
/// cannot be proven to match.
fn written(status: TicketStatus) -> SqlLiteral<Text> {
    diesel::dsl::sql(&format!("'{}'", status.as_str()))
}

/// A driver step's tickets in the order it locks them: operator, then ticket.
fn in_lock_order(rows: Vec<TicketRow>) -> Result<Vec<TicketRecord>, StoreError> {
    let mut tickets = rows
        .into_iter()
        .map(TicketRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    tickets.sort_unstable_by_key(|ticket| (ticket.operator_id, ticket.id));
    Ok(tickets)
}

pub(crate) async fn find_ticket(
    store: &PgStore,
    operator: OperatorId,
    id: TicketId,
) -> Result<Option<TicketRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let row: Option<TicketRow> = flight_tickets::table
        .find((uuid_of(operator), uuid_of(id)))
        .select(TicketRow::as_select())
        .first(&mut conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    row.map(TicketRow::into_record).transpose()
}

pub(crate) async fn tickets(
    store: &PgStore,
    operator: OperatorId,
    filter: TicketFilter,
    before: Option<TicketId>,
    limit: u32,
) -> Result<Vec<TicketRecord>, StoreError> {
    let mut query = flight_tickets::table
        .filter(flight_tickets::operator_id.eq(uuid_of(operator)))
        .order(flight_tickets::id.desc())
        .limit(i64::from(limit))
        .select(TicketRow::as_select())
        .into_boxed();
    if let Some(user) = filter.user {
        query = query.filter(flight_tickets::user_id.eq(uuid_of(user)));
    }
    if let Some(flight) = filter.flight {
        query = query.filter(flight_tickets::flight_id.eq(uuid_of(flight)));
    }
    if let Some(from) = filter.from {
        query = query.filter(flight_tickets::created_at.ge(from));
    }
    if let Some(to) = filter.to {
        query = query.filter(flight_tickets::created_at.lt(to));
    }
    if let Some(before) = before {
        query = query.filter(flight_tickets::id.lt(uuid_of(before)));
    }
    let mut conn = store.conn().await?;
    let rows: Vec<TicketRow> = query.load(&mut conn).await.map_err(from_diesel)?;
    rows.into_iter().map(TicketRow::into_record).collect()
}

#[cfg(test)]
mod plan_tests;
