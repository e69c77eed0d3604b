//! Flight rows as diesel reads and writes them, and their conversions to the app's
//! records: stored text and integers parsed back into the game's types. A value the
//! domain refuses is a corrupt row (`crate::db::error::corrupt`), never a panic.

use diesel::prelude::*;
use opinion_app::flight::model::{
    ChainRecord, Enablement, FlightRecord, RefundReason, TermsCancellation, TermsRecord, TicketRecord,
};
use opinion_app::ports::StoreError;
use opinion_flight::{
    ChainLength, Multiplier, Rupiah, Salt, Seed, SettlementPeriod, ShareBps, Terms, TermsVersion, TicketLimits,
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, parsed};
use crate::db::ids::{id_of, uuid_of};
use crate::db::schema::{flight_chains, flight_enablements, flight_terms, flight_tickets, flights};

/// A stored integer that must fit a narrower type.
fn narrowed<T: TryFrom<S>, S: Copy + std::fmt::Display>(
    table: &str,
    id: Uuid,
    what: &str,
    value: S,
) -> Result<T, StoreError> {
    T::try_from(value).map_err(|_| corrupt(table, id, &format!("{what} {value} is out of range")))
}

/// A stored amount of rupiah.
fn rupiah(table: &str, id: Uuid, value: i64) -> Result<Rupiah, StoreError> {
    Rupiah::new(value).map_err(|problem| corrupt(table, id, &problem))
}

/// A stored multiplier in hundredths.
fn multiplier(table: &str, id: Uuid, hundredths: i64) -> Result<Multiplier, StoreError> {
    Ok(Multiplier::from_hundredths(narrowed(
        table,
        id,
        "multiplier",
        hundredths,
    )?))
}

/// A multiplier as stored.
pub(crate) fn hundredths(multiplier: Multiplier) -> i64 {
    i64::try_from(multiplier.hundredths()).unwrap_or(i64::MAX)
}

/// A stored seed in hex.
fn seed(table: &str, id: Uuid, hex: &str) -> Result<Seed, StoreError> {
    Seed::from_hex(hex).map_err(|problem| corrupt(table, id, &problem))
}

/// A chain's public columns, read with a flight or alone.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = flight_chains, check_for_backend(diesel::pg::Pg))]
pub(crate) struct ChainRow {
    id: Uuid,
    length: i32,
    salt: String,
    commitment: String,
    created_at: OffsetDateTime,
}

/// A chain's public parts, parsed.
struct ChainParts {
    length: ChainLength,
    salt: Salt,
    commitment: Seed,
}

impl ChainRow {
    fn parts(&self) -> Result<ChainParts, StoreError> {
        const TABLE: &str = "flight_chains";
        let id = self.id;
        let length = narrowed(TABLE, id, "length", self.length)?;
        Ok(ChainParts {
            length: ChainLength::new(length).map_err(|problem| corrupt(TABLE, id, &problem))?,
            salt: Salt::new(self.salt.clone()).map_err(|problem| corrupt(TABLE, id, &problem))?,
            commitment: seed(TABLE, id, &self.commitment)?,
        })
    }

    /// The chain this row stores.
    pub(crate) fn into_record(self) -> Result<ChainRecord, StoreError> {
        let parts = self.parts()?;
        Ok(ChainRecord {
            id: id_of(self.id),
            length: parts.length,
            salt: parts.salt,
            commitment: parts.commitment,
            created_at: self.created_at,
        })
    }
}

/// A `flight_chains` row as created, its terminal seed already sealed.
#[derive(Debug, Insertable)]
#[diesel(table_name = flight_chains, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewChainRow {
    id: Uuid,
    terminal_seed_sealed: String,
    length: i32,
    salt: String,
    commitment: String,
    created_at: OffsetDateTime,
}

impl NewChainRow {
    /// The row storing `chain` with its sealed terminal seed.
    pub(crate) fn new(chain: &ChainRecord, terminal_seed_sealed: String) -> Self {
        Self {
            id: uuid_of(chain.id),
            terminal_seed_sealed,
            length: i32::try_from(chain.length.get()).unwrap_or(i32::MAX),
            salt: chain.salt.as_str().to_owned(),
            commitment: chain.commitment.to_hex(),
            created_at: chain.created_at,
        }
    }
}

/// A `flights` row, read whole and written whole.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = flights, check_for_backend(diesel::pg::Pg), treat_none_as_null = true)]
pub(crate) struct FlightRow {
    id: Uuid,
    chain_id: Uuid,
    number: i32,
    phase: String,
    crash_hundredths: i64,
    boarding_at: OffsetDateTime,
    take_off_at: OffsetDateTime,
    crash_at: OffsetDateTime,
    revealed_seed: Option<String>,
    crashed_at: Option<OffsetDateTime>,
    cancelled_at: Option<OffsetDateTime>,
    settled_at: Option<OffsetDateTime>,
}

impl FlightRow {
    /// The row storing `flight` (its chain's columns are the chain's).
    pub(crate) fn new(flight: &FlightRecord) -> Self {
        Self {
            id: uuid_of(flight.id),
            chain_id: uuid_of(flight.chain_id),
            number: i32::try_from(flight.number).unwrap_or(i32::MAX),
            phase: flight.phase.as_str().to_owned(),
            crash_hundredths: hundredths(flight.crash),
            boarding_at: flight.boarding_at,
            take_off_at: flight.take_off_at,
            crash_at: flight.crash_at,
            revealed_seed: flight.revealed_seed.as_ref().map(Seed::to_hex),
            crashed_at: flight.crashed_at,
            cancelled_at: flight.cancelled_at,
            settled_at: flight.settled_at,
        }
    }

    /// The flight this row stores, with its chain's public data.
    pub(crate) fn into_record(self, chain: &ChainRow) -> Result<FlightRecord, StoreError> {
        const TABLE: &str = "flights";
        let id = self.id;
        let parts = chain.parts()?;
        Ok(FlightRecord {
            id: id_of(id),
            chain_id: id_of(self.chain_id),
            number: narrowed(TABLE, id, "number", self.number)?,
            phase: parsed(TABLE, id, &self.phase)?,
            crash: multiplier(TABLE, id, self.crash_hundredths)?,
            boarding_at: self.boarding_at,
            take_off_at: self.take_off_at,
            crash_at: self.crash_at,
            revealed_seed: self.revealed_seed.map(|hex| seed(TABLE, id, &hex)).transpose()?,
            crashed_at: self.crashed_at,
            cancelled_at: self.cancelled_at,
            settled_at: self.settled_at,
            salt: parts.salt,
            commitment: parts.commitment,
            chain_length: parts.length,
        })
    }
}

/// A `flight_tickets` row, read whole and written whole.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(
    table_name = flight_tickets,
    primary_key(operator_id, id),
    check_for_backend(diesel::pg::Pg),
    treat_none_as_null = true
)]
pub(crate) struct TicketRow {
    operator_id: Uuid,
    id: Uuid,
    flight_id: Uuid,
    user_id: Uuid,
    external_user_id: String,
    client_ticket_id: String,
    stake: i64,
    auto_cash_out: Option<i64>,
    status: String,
    terms_id: Uuid,
    share_bps: i32,
    max_payout: i64,
    purchase_operation_id: Uuid,
    cash_out_hundredths: Option<i64>,
    cashed_out_at: Option<OffsetDateTime>,
    payout: Option<i64>,
    refund_reason: Option<String>,
    failure_reason: Option<String>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    settled_at: Option<OffsetDateTime>,
}

impl TicketRow {
    /// The row storing `ticket`.
    pub(crate) fn new(ticket: &TicketRecord) -> Self {
        Self {
            operator_id: uuid_of(ticket.operator_id),
            id: uuid_of(ticket.id),
            flight_id: uuid_of(ticket.flight_id),
            user_id: uuid_of(ticket.user_id),
            external_user_id: ticket.external_user_id.clone(),
            client_ticket_id: ticket.client_ticket_id.clone(),
            stake: ticket.stake.get(),
            auto_cash_out: ticket.auto_cash_out.map(hundredths),
            status: ticket.status.as_str().to_owned(),
            terms_id: uuid_of(ticket.terms_id),
            share_bps: i32::from(ticket.share_bps.get()),
            max_payout: ticket.max_payout.get(),
            purchase_operation_id: uuid_of(ticket.purchase_operation_id),
            cash_out_hundredths: ticket.cash_out.map(hundredths),
            cashed_out_at: ticket.cashed_out_at,
            payout: ticket.payout.map(Rupiah::get),
            refund_reason: ticket.refund_reason.map(|reason| reason.as_str().to_owned()),
            failure_reason: ticket.failure_reason.clone(),
            created_at: ticket.created_at,
            updated_at: ticket.updated_at,
            settled_at: ticket.settled_at,
        }
    }

    /// The ticket this row stores.
    pub(crate) fn into_record(self) -> Result<TicketRecord, StoreError> {
        const TABLE: &str = "flight_tickets";
        let id = self.id;
        let refund_reason = self
            .refund_reason
            .map(|text| {
                RefundReason::ALL
                    .into_iter()
                    .find(|reason| reason.as_str() == text)
                    .ok_or_else(|| corrupt(TABLE, id, &format!("refund reason `{text}`")))
            })
            .transpose()?;
        let share_bps = narrowed(TABLE, id, "share_bps", self.share_bps)?;
        Ok(TicketRecord {
            operator_id: id_of(self.operator_id),
            id: id_of(id),
            flight_id: id_of(self.flight_id),
            user_id: id_of(self.user_id),
            external_user_id: self.external_user_id,
            client_ticket_id: self.client_ticket_id,
            stake: rupiah(TABLE, id, self.stake)?,
            auto_cash_out: self
                .auto_cash_out
                .map(|value| multiplier(TABLE, id, value))
                .transpose()?,
            status: parsed(TABLE, id, &self.status)?,
            terms_id: id_of(self.terms_id),
            share_bps: ShareBps::new(share_bps).map_err(|problem| corrupt(TABLE, id, &problem))?,
            max_payout: rupiah(TABLE, id, self.max_payout)?,
            purchase_operation_id: id_of(self.purchase_operation_id),
            cash_out: self
                .cash_out_hundredths
                .map(|value| multiplier(TABLE, id, value))
                .transpose()?,
            cashed_out_at: self.cashed_out_at,
            payout: self.payout.map(|value| rupiah(TABLE, id, value)).transpose()?,
            refund_reason,
            failure_reason: self.failure_reason,
            created_at: self.created_at,
            updated_at: self.updated_at,
            settled_at: self.settled_at,
        })
    }
}

/// A `flight_enablements` row.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = flight_enablements, primary_key(operator_id), check_for_backend(diesel::pg::Pg))]
pub(crate) struct EnablementRow {
    operator_id: Uuid,
    enabled: bool,
    changed_at: OffsetDateTime,
    changed_by: String,
}

impl EnablementRow {
    /// The row storing `enablement`.
    pub(crate) fn new(enablement: &Enablement) -> Self {
        Self {
            operator_id: uuid_of(enablement.operator_id),
            enabled: enablement.enabled,
            changed_at: enablement.changed_at,
            changed_by: enablement.changed_by.clone(),
        }
    }

    /// The enablement this row stores.
    pub(crate) fn into_record(self) -> Enablement {
        Enablement {
            operator_id: id_of(self.operator_id),
            enabled: self.enabled,
            changed_at: self.changed_at,
            changed_by: self.changed_by,
        }
    }
}

/// A `flight_terms` row.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = flight_terms, check_for_backend(diesel::pg::Pg))]
pub(crate) struct TermsRow {
    operator_id: Uuid,
    id: Uuid,
    effective_from: OffsetDateTime,
    share_bps: i32,
    min_stake: i64,
    max_stake: i64,
    max_payout: i64,
    tickets_per_flight: i16,
    settlement_period: String,
    payment_due_days: i16,
    created_at: OffsetDateTime,
    created_by: String,
    cancelled_at: Option<OffsetDateTime>,
    cancelled_by: Option<String>,
}

impl TermsRow {
    /// The row storing `record`.
    pub(crate) fn new(record: &TermsRecord) -> Self {
        let terms = &record.version.terms;
        let limits = terms.limits();
        Self {
            operator_id: uuid_of(record.operator_id),
            id: uuid_of(record.version.id),
            effective_from: record.version.effective_from,
            share_bps: i32::from(terms.share_bps().get()),
            min_stake: limits.min_stake().get(),
            max_stake: limits.max_stake().get(),
            max_payout: limits.max_payout().get(),
            tickets_per_flight: i16::from(limits.tickets_per_flight()),
            settlement_period: terms.period().as_str().to_owned(),
            payment_due_days: i16::try_from(terms.payment_due_days()).unwrap_or(i16::MAX),
            created_at: record.created_at,
            created_by: record.created_by.clone(),
            cancelled_at: record.cancelled.as_ref().map(|c| c.at),
            cancelled_by: record.cancelled.as_ref().map(|c| c.by.clone()),
        }
    }

    /// The terms version this row stores.
    pub(crate) fn into_record(self) -> Result<TermsRecord, StoreError> {
        const TABLE: &str = "flight_terms";
        let id = self.id;
        let bad = |problem: &dyn std::fmt::Display| corrupt(TABLE, id, problem);
        let limits = TicketLimits::new(
            rupiah(TABLE, id, self.min_stake)?,
            rupiah(TABLE, id, self.max_stake)?,
            rupiah(TABLE, id, self.max_payout)?,
            narrowed(TABLE, id, "tickets_per_flight", self.tickets_per_flight)?,
        )
        .map_err(|problem| bad(&problem))?;
        let share_bps =
            ShareBps::new(narrowed(TABLE, id, "share_bps", self.share_bps)?).map_err(|problem| bad(&problem))?;
        let period: SettlementPeriod = parsed(TABLE, id, &self.settlement_period)?;
        let due_days = narrowed(TABLE, id, "payment_due_days", self.payment_due_days)?;
        let terms = Terms::new(share_bps, limits, period, due_days).map_err(|problem| bad(&problem))?;
        Ok(TermsRecord {
            operator_id: id_of(self.operator_id),
            version: TermsVersion {
                id: id_of(id),
                effective_from: self.effective_from,
                terms,
            },
            created_at: self.created_at,
            created_by: self.created_by,
            cancelled: match (self.cancelled_at, self.cancelled_by) {
                (Some(at), Some(by)) => Some(TermsCancellation { at, by }),
                (None, None) => None,
                _ => return Err(bad(&"a cancellation without its time or its author")),
            },
        })
    }
}
