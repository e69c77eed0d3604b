//! How many tickets a player holds on the flight it last bought on, against the cap of
//! tickets per flight (`flight_held_tickets`): read by key and added to under the
//! player's lock by a purchase, given back by a ticket rejected later. One flight boards
//! at a time, so a row per player is enough: a row naming an earlier flight holds
//! nothing on this one. A count of the tickets themselves depended on the planner, which
//! never knows the boarding flight and may count by reading the operator's whole flight.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use crate::db::prepared::prepared;
use crate::db::schema::flight_held_tickets;

/// The player's places on one flight, as its row says.
pub(crate) struct Places {
    /// Tickets the player holds on the flight.
    pub held: u64,
    /// Whether the row names this flight (otherwise a new place starts it afresh).
    on_flight: bool,
}

/// The places the player (`op`, `user`) holds on `flight`.
pub(crate) async fn places(conn: &mut AsyncPgConnection, op: Uuid, user: Uuid, flight: Uuid) -> QueryResult<Places> {
    let row: Option<(Uuid, i16)> = flight_held_tickets::table
        .find((op, user))
        .select((flight_held_tickets::flight_id, flight_held_tickets::held))
        .first(conn)
        .await
        .optional()?;
    Ok(match row {
        Some((named, held)) if named == flight => Places {
            held: u64::try_from(held).unwrap_or(0),
            on_flight: true,
        },
        _ => Places {
            held: 0,
            on_flight: false,
        },
    })
}

/// Takes one more place on `flight` for the player, whose `places` were read under its
/// lock.
pub(crate) async fn take_a_place(
    conn: &mut AsyncPgConnection,
    op: Uuid,
    user: Uuid,
    flight: Uuid,
    places: &Places,
) -> QueryResult<()> {
    use flight_held_tickets::dsl as h;
    if places.on_flight {
        prepared(diesel::update(h::flight_held_tickets.find((op, user))).set(h::held.eq(h::held + 1)))
            .execute(conn)
            .await?;
    } else {
        prepared(
            diesel::insert_into(h::flight_held_tickets)
                .values((
                    h::operator_id.eq(op),
                    h::user_id.eq(user),
                    h::flight_id.eq(flight),
                    h::held.eq(1),
                ))
                .on_conflict((h::operator_id, h::user_id))
                .do_update()
                .set((h::flight_id.eq(flight), h::held.eq(1))),
        )
        .execute(conn)
        .await?;
    }
    Ok(())
}

/// Gives back the place a ticket of the player on `flight` held; nothing when the
/// player has bought on a later flight since.
pub(crate) async fn give_back_a_place(
    conn: &mut AsyncPgConnection,
    op: Uuid,
    user: Uuid,
    flight: Uuid,
) -> QueryResult<()> {
    use flight_held_tickets::dsl as h;
    prepared(
        diesel::update(h::flight_held_tickets.find((op, user)).filter(h::flight_id.eq(flight)))
            .set(h::held.eq(h::held - 1)),
    )
    .execute(conn)
    .await?;
    Ok(())
}
