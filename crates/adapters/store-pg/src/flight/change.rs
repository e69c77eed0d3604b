//! `FlightStore::apply_flight_change`: one step of the flight product in one
//! transaction. Every precondition is checked by the statement that depends on it: the
//! flight that must hold still is read `FOR SHARE` in its phase (so a driver moving it
//! waits for this step), the flight, each ticket and the wallet operation are moved by
//! conditional `UPDATE`s on the state the use case read. If any finds something else,
//! the whole step is rolled back and reported as `false`. The locks are taken in one
//! order (the flight, then tickets, then wallet operations), the driver's and the
//! players' steps alike, so they cannot deadlock.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::ports::{FlightChange, FlightUpdate, TicketUpdate};
use opinion_app::ports::StoreError;
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::prepared::prepared;
use crate::db::schema::{flight_tickets, flights};
use crate::flight::held_tickets::give_back_a_place;
use crate::flight::rows::{FlightRow, TicketRow};
use crate::opinion::trading::apply::{StepError, insert_operations, update_operation};
use crate::webhooks::outbox::enqueue_events;

/// Why a step was not committed.
enum Refusal {
    /// The database refused or failed.
    Database(DieselError),
    /// A precondition no longer holds: what changed.
    Changed(&'static str),
}

impl From<DieselError> for Refusal {
    fn from(error: DieselError) -> Self {
        Self::Database(error)
    }
}

impl From<StepError> for Refusal {
    fn from(error: StepError) -> Self {
        match error {
            StepError::Database(error) => Self::Database(error),
            StepError::Conflict(_) => Self::Changed("wallet operation"),
        }
    }
}

/// Fails the step unless exactly one row was changed.
fn exactly_one(changed: usize, what: &'static str) -> Result<(), Refusal> {
    if changed == 1 {
        Ok(())
    } else {
        Err(Refusal::Changed(what))
    }
}

pub(crate) async fn apply_flight_change(store: &PgStore, change: &FlightChange) -> Result<bool, StoreError> {
    let mut conn = store.conn().await?;
    let applied = conn
        .transaction::<_, Refusal, _>(async |conn| apply_in(conn, change).await)
        .await;
    match applied {
        Ok(()) => Ok(true),
        Err(Refusal::Changed(what)) => {
            tracing::debug!(changed = what, "a flight step's precondition no longer holds");
            Ok(false)
        }
        Err(Refusal::Database(error)) => Err(from_diesel(error)),
    }
}

async fn apply_in(conn: &mut AsyncPgConnection, change: &FlightChange) -> Result<(), Refusal> {
    if let Some((id, phase)) = change.flight_must_be {
        let held: Option<Uuid> = flights::table
            .find(uuid_of(id))
            .filter(flights::phase.eq(phase.as_str()))
            .select(flights::id)
            .for_share()
            .first(conn)
            .await
            .optional()?;
        if held.is_none() {
            return Err(Refusal::Changed("flight"));
        }
    }
    if let Some(update) = &change.flight {
        update_flight(conn, update).await?;
    }
    for update in &change.tickets {
        update_ticket(conn, update).await?;
    }
    insert_operations(conn, &change.new_operations).await?;
    if let Some(update) = &change.operation {
        update_operation(conn, update.record.operator_id, update).await?;
    }
    enqueue_events(conn, &change.events).await?;
    Ok(())
}

async fn update_flight(conn: &mut AsyncPgConnection, update: &FlightUpdate) -> Result<(), Refusal> {
    let row = FlightRow::new(&update.flight);
    let changed = diesel::update(
        flights::table
            .find(uuid_of(update.flight.id))
            .filter(flights::phase.eq(update.expected.as_str())),
    )
    .set(&row)
    .execute(conn)
    .await?;
    exactly_one(changed, "flight")
}

async fn update_ticket(conn: &mut AsyncPgConnection, update: &TicketUpdate) -> Result<(), Refusal> {
    let ticket = &update.ticket;
    // Kept prepared (its text is constant: every column is written, `None` as null);
    // diesel would plan it afresh on every call.
    let changed = prepared(
        diesel::update(
            flight_tickets::table
                .find((uuid_of(ticket.operator_id), uuid_of(ticket.id)))
                .filter(flight_tickets::status.eq(update.expected.as_str())),
        )
        .set(&TicketRow::new(ticket)),
    )
    .execute(conn)
    .await?;
    exactly_one(changed, "ticket")?;
    if update.expected.holds_a_place() && !ticket.status.holds_a_place() {
        give_back_a_place(
            conn,
            uuid_of(ticket.operator_id),
            uuid_of(ticket.user_id),
            uuid_of(ticket.flight_id),
        )
        .await?;
    }
    Ok(())
}
