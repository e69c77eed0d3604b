//! Seed chains and flights: platform-wide rows, read with no operator filter (every
//! operator's players fly the same flights). A chain's terminal seed is sealed under the
//! data key, bound to its chain: a sealed seed copied to another chain does not open.

use diesel::dsl::max;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::RunQueryDsl;
use opinion_app::flight::model::{ChainRecord, FlightRecord};
use opinion_app::ports::StoreError;
use opinion_core::{FlightChainId, FlightId};
use opinion_flight::Seed;
use time::OffsetDateTime;

use crate::db::error::{corrupt, from_diesel, unavailable};
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::{flight_chains, flights};
use crate::db::sealed_places::flight_chain_seed;
use crate::flight::rows::{ChainRow, FlightRow, NewChainRow};

/// Flights with their chain's public columns.
#[diesel::dsl::auto_type]
fn flights_with_chains() -> _ {
    flights::table.inner_join(flight_chains::table.on(flight_chains::id.eq(flights::chain_id)))
}

/// Read rows of flights as records.
fn records(rows: Vec<(FlightRow, ChainRow)>) -> Result<Vec<FlightRecord>, StoreError> {
    rows.into_iter()
        .map(|(flight, chain)| flight.into_record(&chain))
        .collect()
}

pub(crate) async fn current_chain(store: &PgStore) -> Result<Option<(ChainRecord, Option<u32>)>, StoreError> {
    let mut conn = store.conn().await?;
    let Some(row) = flight_chains::table
        .order((flight_chains::created_at.desc(), flight_chains::id.desc()))
        .select(ChainRow::as_select())
        .first(&mut conn)
        .await
        .optional()
        .map_err(from_diesel)?
    else {
        return Ok(None);
    };
    let chain = row.into_record()?;
    let last: Option<i32> = flights::table
        .filter(flights::chain_id.eq(uuid_of(chain.id)))
        .select(max(flights::number))
        .first(&mut conn)
        .await
        .map_err(from_diesel)?;
    let last = last
        .map(|number| u32::try_from(number).map_err(|_| corrupt("flights", uuid_of(chain.id), &"negative number")))
        .transpose()?;
    Ok(Some((chain, last)))
}

pub(crate) async fn create_chain(store: &PgStore, chain: &ChainRecord, terminal: &Seed) -> Result<(), StoreError> {
    let sealed = store
        .data_key()?
        .seal(terminal.as_bytes(), &flight_chain_seed(uuid_of(chain.id)))
        .map_err(|error| unavailable("cannot seal a terminal seed", &error))?;
    let mut conn = store.conn().await?;
    diesel::insert_into(flight_chains::table)
        .values(NewChainRow::new(chain, sealed))
        .execute(&mut conn)
        .await
        .map(drop)
        .map_err(from_diesel)
}

pub(crate) async fn terminal_seed(store: &PgStore, chain: FlightChainId) -> Result<Seed, StoreError> {
    let key = store.data_key()?;
    let id = uuid_of(chain);
    let mut conn = store.conn().await?;
    let sealed: String = flight_chains::table
        .find(id)
        .select(flight_chains::terminal_seed_sealed)
        .first(&mut conn)
        .await
        .map_err(|error| match error {
            DieselError::NotFound => StoreError::Unavailable(format!("no flight chain {chain}")),
            error => from_diesel(error),
        })?;
    let opened = key
        .open(&sealed, &flight_chain_seed(id))
        .map_err(|error| corrupt("flight_chains", id, &error))?;
    let bytes: [u8; 32] = opened
        .try_into()
        .map_err(|_| corrupt("flight_chains", id, &"a terminal seed is not 32 bytes"))?;
    Ok(Seed::from_bytes(bytes))
}

pub(crate) async fn chains(store: &PgStore, limit: u32) -> Result<Vec<ChainRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<ChainRow> = flight_chains::table
        .order((flight_chains::created_at.desc(), flight_chains::id.desc()))
        .limit(i64::from(limit))
        .select(ChainRow::as_select())
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(ChainRow::into_record).collect()
}

/// The flight that boarded last, whatever its phase; a read of one statement, shared
/// with the reads asked for together with it.
pub(crate) async fn latest_flight(store: &PgStore) -> Result<Option<FlightRecord>, StoreError> {
    let conn = store.shared_conn().await?;
    let row: Option<(FlightRow, ChainRow)> = flights_with_chains()
        .order((flights::boarding_at.desc(), flights::id.desc()))
        .select((FlightRow::as_select(), ChainRow::as_select()))
        .first(&mut &*conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    row.map(|(flight, chain)| flight.into_record(&chain)).transpose()
}

pub(crate) async fn find_flight(store: &PgStore, id: FlightId) -> Result<Option<FlightRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let row: Option<(FlightRow, ChainRow)> = flights_with_chains()
        .filter(flights::id.eq(uuid_of(id)))
        .select((FlightRow::as_select(), ChainRow::as_select()))
        .first(&mut conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    row.map(|(flight, chain)| flight.into_record(&chain)).transpose()
}

pub(crate) async fn flights(
    store: &PgStore,
    before: Option<(OffsetDateTime, FlightId)>,
    limit: u32,
) -> Result<Vec<FlightRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let mut query = flights_with_chains()
        .order((flights::boarding_at.desc(), flights::id.desc()))
        .limit(i64::from(limit))
        .select((FlightRow::as_select(), ChainRow::as_select()))
        .into_boxed();
    if let Some((at, id)) = before {
        let id = uuid_of(id);
        // `boarding_at <= at` bounds the index scan; the OR alone would not.
        query = query.filter(flights::boarding_at.le(at)).filter(
            flights::boarding_at
                .lt(at)
                .or(flights::boarding_at.eq(at).and(flights::id.lt(id))),
        );
    }
    records(query.load(&mut conn).await.map_err(from_diesel)?)
}

/// `false` when the unique index of the one unfinished flight or the chain's numbering
/// refuses the row: another driver opened a flight first.
pub(crate) async fn open_flight(store: &PgStore, flight: &FlightRecord) -> Result<bool, StoreError> {
    let mut conn = store.conn().await?;
    let inserted = diesel::insert_into(flights::table)
        .values(FlightRow::new(flight))
        .execute(&mut conn)
        .await;
    match inserted {
        Ok(_) => Ok(true),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info))
            if matches!(
                info.constraint_name(),
                Some("flights_one_unfinished" | "flights_number_in_chain")
            ) =>
        {
            tracing::info!(flight_id = %flight.id, "another driver opened a flight first");
            Ok(false)
        }
        Err(error) => Err(from_diesel(error)),
    }
}
