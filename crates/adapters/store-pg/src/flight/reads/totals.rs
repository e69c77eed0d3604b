//! The totals of the operator's tickets matching a filter, in one aggregate query: what
//! the overview and a flight's detail show. Which statuses count as staked, refunded and
//! unsettled follows `TicketTotals`' definitions.

use diesel::sql_types::{Array, BigInt, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::reads::ports::{TicketFilter, TicketTotals};
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_flight::{Rupiah, TicketStatus};

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::uuid_of;

/// Tickets whose debit went through: their stake was taken.
const STAKED: [TicketStatus; 5] = [
    TicketStatus::Active,
    TicketStatus::CashedOut,
    TicketStatus::Lost,
    TicketStatus::Refunding,
    TicketStatus::Refunded,
];
/// Tickets whose stake is given back or owed back.
const REFUNDED: [TicketStatus; 2] = [TicketStatus::Refunding, TicketStatus::Refunded];

const TOTALS: &str = "\
SELECT count(*)::bigint AS tickets, \
       count(DISTINCT user_id)::bigint AS players, \
       (count(*) FILTER (WHERE status = ANY($7)))::bigint AS unsettled, \
       coalesce(sum(stake) FILTER (WHERE status = ANY($8)), 0)::bigint AS stakes, \
       coalesce(sum(payout) FILTER (WHERE status = 'cashed_out'), 0)::bigint AS payouts, \
       coalesce(sum(stake) FILTER (WHERE status = ANY($9)), 0)::bigint AS refunds \
FROM flight_tickets \
WHERE operator_id = $1 \
  AND ($2::uuid IS NULL OR flight_id = $2) \
  AND ($3::text IS NULL OR user_id = (SELECT id FROM users WHERE operator_id = $1 AND external_user_id = $3)) \
  AND ($4::text IS NULL OR status = $4) \
  AND ($5::timestamptz IS NULL OR created_at >= $5) \
  AND ($6::timestamptz IS NULL OR created_at < $6)";

#[derive(QueryableByName)]
struct TotalsRow {
    #[diesel(sql_type = BigInt)]
    tickets: i64,
    #[diesel(sql_type = BigInt)]
    players: i64,
    #[diesel(sql_type = BigInt)]
    unsettled: i64,
    #[diesel(sql_type = BigInt)]
    stakes: i64,
    #[diesel(sql_type = BigInt)]
    payouts: i64,
    #[diesel(sql_type = BigInt)]
    refunds: i64,
}

fn names(statuses: impl IntoIterator<Item = TicketStatus>) -> Vec<&'static str> {
    statuses.into_iter().map(TicketStatus::as_str).collect()
}

fn rupiah(operator: OperatorId, value: i64) -> Result<Rupiah, StoreError> {
    Rupiah::new(value).map_err(|problem| corrupt("flight_tickets", uuid_of(operator), &problem))
}

/// The totals of the operator's tickets matching `filter`.
pub(super) async fn of(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &TicketFilter,
) -> Result<TicketTotals, StoreError> {
    let unsettled = names(TicketStatus::ALL.into_iter().filter(|status| !status.is_settled()));
    let row: TotalsRow = sql_query(TOTALS)
        .bind::<SqlUuid, _>(uuid_of(operator))
        .bind::<Nullable<SqlUuid>, _>(filter.flight_id.map(uuid_of))
        .bind::<Nullable<Text>, _>(filter.external_user_id.as_deref())
        .bind::<Nullable<Text>, _>(filter.status.map(TicketStatus::as_str))
        .bind::<Nullable<Timestamptz>, _>(filter.purchased.from)
        .bind::<Nullable<Timestamptz>, _>(filter.purchased.to)
        .bind::<Array<Text>, _>(unsettled)
        .bind::<Array<Text>, _>(names(STAKED))
        .bind::<Array<Text>, _>(names(REFUNDED))
        .get_result(conn)
        .await
        .map_err(from_diesel)?;
    Ok(TicketTotals {
        tickets: row.tickets,
        players: row.players,
        unsettled: row.unsettled,
        stakes: rupiah(operator, row.stakes)?,
        payouts: rupiah(operator, row.payouts)?,
        refunds: rupiah(operator, row.refunds)?,
    })
}
