//! Flight rows inserted straight into a test database: a seed chain, its flights, an
//! operator's terms and tickets, exactly as the schema allows them, whatever writes them.

use diesel::sql_query;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, SmallInt, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::RunQueryDsl;
use opinion_flight::TicketStatus;
use time::OffsetDateTime;

use crate::seed::{Seeder, uuid};

/// A seed chain; its sealed terminal seed is a placeholder no read opens.
#[derive(Debug, Clone)]
pub struct ChainSeed {
    /// The `id` column.
    pub id: u128,
    /// The `length` column.
    pub length: i32,
    /// The `salt` column.
    pub salt: String,
    /// The `commitment` column (64 lower-case hex digits).
    pub commitment: String,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

/// A flight; crashed ones carry their revealed seed and crash instant.
#[derive(Debug, Clone)]
pub struct FlightSeed {
    /// The `id` column.
    pub id: u128,
    /// The `chain_id` column.
    pub chain: u128,
    /// The `number` column.
    pub number: i32,
    /// The `phase` column (`boarding`, `in_flight`, `crashed`, `cancelled`).
    pub phase: &'static str,
    /// The `crash_hundredths` column.
    pub crash_hundredths: i64,
    /// The `boarding_at` column; take-off is 5 s later, the crash instant 10 s later.
    pub boarding_at: OffsetDateTime,
    /// The `revealed_seed` column (hex), set exactly when crashed.
    pub revealed_seed: Option<String>,
}

/// An operator's terms version.
#[derive(Debug, Clone)]
pub struct TermsSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `id` column.
    pub id: u128,
    /// The `share_bps` column.
    pub share_bps: i32,
    /// The `effective_from` column (also its creation).
    pub effective_from: OffsetDateTime,
}

/// A ticket; a `cashed_out` one needs `cash_out` and `payout`.
#[derive(Debug, Clone)]
pub struct TicketSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `id` column.
    pub id: u128,
    /// The `flight_id` column.
    pub flight: u128,
    /// The `user_id` column.
    pub user: u128,
    /// The `external_user_id` column.
    pub external_user_id: String,
    /// The `stake` column, whole rupiah.
    pub stake: i64,
    /// The `auto_cash_out` column, hundredths.
    pub auto_cash_out: Option<i64>,
    /// The `status` column.
    pub status: &'static str,
    /// The `terms_id` column.
    pub terms: u128,
    /// The `share_bps` column.
    pub share_bps: i32,
    /// The `cash_out_hundredths` column (its `cashed_out_at` is the creation time).
    pub cash_out: Option<i64>,
    /// The `payout` column.
    pub payout: Option<i64>,
    /// The `refund_reason` column.
    pub refund_reason: Option<&'static str>,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

impl Seeder {
    /// Inserts a seed chain.
    pub async fn flight_chain(&mut self, chain: &ChainSeed) -> &mut Self {
        // Valid as the sealed text the store writes and as bytes, whichever the column is.
        sql_query(
            "INSERT INTO flight_chains (id, terminal_seed_sealed, length, salt, commitment, created_at) \
             VALUES ($1, 'v1.AAAA', $2, $3, $4, $5)",
        )
        .bind::<SqlUuid, _>(uuid(chain.id))
        .bind::<Integer, _>(chain.length)
        .bind::<Text, _>(&chain.salt)
        .bind::<Text, _>(&chain.commitment)
        .bind::<Timestamptz, _>(chain.created_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting chain {chain:?}: {err}"));
        self
    }

    /// Inserts a flight.
    pub async fn flight(&mut self, flight: &FlightSeed) -> &mut Self {
        let crashed = flight.phase == "crashed";
        sql_query(
            "INSERT INTO flights (id, chain_id, number, phase, crash_hundredths, boarding_at, take_off_at, crash_at, \
             revealed_seed, crashed_at) VALUES ($1, $2, $3, $4, $5, $6, $6 + interval '5 seconds', \
             $6 + interval '10 seconds', $7, CASE WHEN $8 THEN $6 + interval '10 seconds' END)",
        )
        .bind::<SqlUuid, _>(uuid(flight.id))
        .bind::<SqlUuid, _>(uuid(flight.chain))
        .bind::<Integer, _>(flight.number)
        .bind::<Text, _>(flight.phase)
        .bind::<BigInt, _>(flight.crash_hundredths)
        .bind::<Timestamptz, _>(flight.boarding_at)
        .bind::<Nullable<Text>, _>(flight.revealed_seed.as_deref())
        .bind::<diesel::sql_types::Bool, _>(crashed)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting flight {flight:?}: {err}"));
        self
    }

    /// Inserts an operator's terms version: 1 000 to 5 000 000 IDR stakes, payouts up to
    /// 500 000 000, two tickets per flight, due 15 days after each calendar month.
    pub async fn flight_terms(&mut self, terms: &TermsSeed) -> &mut Self {
        self.flight_terms_due(terms, 15).await
    }

    /// Inserts an operator's terms version like [`Seeder::flight_terms`], its payment due
    /// `payment_due_days` after each calendar month: operators whose due dates differ.
    pub async fn flight_terms_due(&mut self, terms: &TermsSeed, payment_due_days: i16) -> &mut Self {
        sql_query(
            "INSERT INTO flight_terms (operator_id, id, effective_from, share_bps, min_stake, max_stake, max_payout, \
             tickets_per_flight, settlement_period, payment_due_days, created_at, created_by) \
             VALUES ($1, $2, $3, $4, 1000, 5000000, 500000000, 2, 'calendar_month', $5, $3, 'Test staff')",
        )
        .bind::<SqlUuid, _>(uuid(terms.operator))
        .bind::<SqlUuid, _>(uuid(terms.id))
        .bind::<Timestamptz, _>(terms.effective_from)
        .bind::<Integer, _>(terms.share_bps)
        .bind::<SmallInt, _>(payment_due_days)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting terms {terms:?}: {err}"));
        self
    }

    /// Inserts a ticket; its purchase operation id is the ticket's own bits. Like a
    /// purchase, a ticket not rejected holds a place of its player on its flight (the
    /// player's row of places names the flight of the ticket seeded last).
    pub async fn flight_ticket(&mut self, ticket: &TicketSeed) -> &mut Self {
        let status: TicketStatus = ticket
            .status
            .parse()
            .unwrap_or_else(|_| panic!("seeding a ticket of an unknown status: {ticket:?}"));
        sql_query(
            "WITH ticket AS (INSERT INTO flight_tickets (operator_id, id, flight_id, user_id, external_user_id, \
             client_ticket_id, stake, auto_cash_out, status, terms_id, share_bps, max_payout, \
             purchase_operation_id, cash_out_hundredths, cashed_out_at, payout, refund_reason, created_at, \
             updated_at) \
             VALUES ($1, $2, $3, $4, $5, $2::text, $6, $7, $8, $9, $10, 500000000, $2, $11, \
             CASE WHEN $11 IS NOT NULL THEN $14 END, $12, $13, $14, $14) \
             RETURNING operator_id, user_id, flight_id) \
             INSERT INTO flight_held_tickets AS places (operator_id, user_id, flight_id, held) \
             SELECT operator_id, user_id, flight_id, 1 FROM ticket WHERE $15 \
             ON CONFLICT (operator_id, user_id) DO UPDATE SET flight_id = EXCLUDED.flight_id, \
             held = CASE WHEN places.flight_id = EXCLUDED.flight_id THEN places.held + 1 ELSE 1 END",
        )
        .bind::<SqlUuid, _>(uuid(ticket.operator))
        .bind::<SqlUuid, _>(uuid(ticket.id))
        .bind::<SqlUuid, _>(uuid(ticket.flight))
        .bind::<SqlUuid, _>(uuid(ticket.user))
        .bind::<Text, _>(&ticket.external_user_id)
        .bind::<BigInt, _>(ticket.stake)
        .bind::<Nullable<BigInt>, _>(ticket.auto_cash_out)
        .bind::<Text, _>(ticket.status)
        .bind::<SqlUuid, _>(uuid(ticket.terms))
        .bind::<Integer, _>(ticket.share_bps)
        .bind::<Nullable<BigInt>, _>(ticket.cash_out)
        .bind::<Nullable<BigInt>, _>(ticket.payout)
        .bind::<Nullable<Text>, _>(ticket.refund_reason)
        .bind::<Timestamptz, _>(ticket.created_at)
        .bind::<Bool, _>(status.holds_a_place())
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting ticket {ticket:?}: {err}"));
        self
    }
}
