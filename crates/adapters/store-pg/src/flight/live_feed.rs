//! The live feed's read of a flight, across operators: its counts in one aggregate and
//! its latest cash-outs, both served by `flight_tickets_of_flight` (flight, status,
//! cash-out instant). Each instance makes this read once per feed batch, whatever the
//! number of pages it serves.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::RunQueryDsl;
use opinion_app::flight::ports::{FeedCashOutRow, FeedTally};
use opinion_app::ports::StoreError;
use opinion_core::FlightId;
use opinion_flight::{Multiplier, Rupiah, TicketStatus};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::flight_tickets;

const TALLY: &str = "\
SELECT count(DISTINCT (operator_id, user_id))::bigint AS players, \
       count(*)::bigint AS tickets, \
       (count(*) FILTER (WHERE status = 'cashed_out'))::bigint AS cashed_out \
FROM flight_tickets \
WHERE flight_id = $1 AND status IN ('active', 'cashed_out', 'lost')";

#[derive(QueryableByName)]
struct TallyRow {
    #[diesel(sql_type = BigInt)]
    players: i64,
    #[diesel(sql_type = BigInt)]
    tickets: i64,
    #[diesel(sql_type = BigInt)]
    cashed_out: i64,
}

/// A cash-out's columns: operator, ticket, player, multiplier, payout, instant.
type CashOutColumns = (Uuid, Uuid, Uuid, Option<i64>, Option<i64>, Option<OffsetDateTime>);

fn count(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn cash_out(row: CashOutColumns) -> Result<FeedCashOutRow, StoreError> {
    let (operator, ticket, user, hundredths, payout, at) = row;
    let broken = |what: &str| corrupt("flight_tickets", ticket, &format!("a cashed-out ticket {what}"));
    let hundredths = hundredths.and_then(|h| u64::try_from(h).ok());
    Ok(FeedCashOutRow {
        operator_id: id_of(operator),
        ticket_id: id_of(ticket),
        user_id: id_of(user),
        multiplier: Multiplier::from_hundredths(hundredths.ok_or_else(|| broken("has no multiplier"))?),
        payout: payout
            .and_then(|payout| Rupiah::new(payout).ok())
            .ok_or_else(|| broken("has no payout"))?,
        cashed_out_at: at.ok_or_else(|| broken("has no instant"))?,
    })
}

pub(crate) async fn live_feed(
    store: &PgStore,
    flight: FlightId,
    since: OffsetDateTime,
    limit: u32,
) -> Result<(FeedTally, Vec<FeedCashOutRow>), StoreError> {
    let mut conn = store.conn().await?;
    let tally: TallyRow = sql_query(TALLY)
        .bind::<SqlUuid, _>(uuid_of(flight))
        .get_result(&mut conn)
        .await
        .map_err(from_diesel)?;
    let rows: Vec<CashOutColumns> = flight_tickets::table
        .filter(flight_tickets::flight_id.eq(uuid_of(flight)))
        .filter(flight_tickets::status.eq(TicketStatus::CashedOut.as_str()))
        .filter(flight_tickets::cashed_out_at.ge(since))
        .order((flight_tickets::cashed_out_at.desc(), flight_tickets::id.desc()))
        .limit(i64::from(limit))
        .select((
            flight_tickets::operator_id,
            flight_tickets::id,
            flight_tickets::user_id,
            flight_tickets::cash_out_hundredths,
            flight_tickets::payout,
            flight_tickets::cashed_out_at,
        ))
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    let tally = FeedTally {
        players: count(tally.players),
        tickets: count(tally.tickets),
        cashed_out: count(tally.cashed_out),
    };
    Ok((tally, rows.into_iter().map(cash_out).collect::<Result<_, _>>()?))
}
