//! An operator's flight terms versions: inserted once, never edited; a scheduled one is
//! cancelled once, before it takes effect (the database refuses anything else); read all
//! at once (an operator has a handful).

use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::flight::model::{TermsCancellation, TermsRecord};
use opinion_app::model::NewEvent;
use opinion_app::ports::StoreError;
use opinion_core::{FlightTermsId, OperatorId};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::flight_terms;
use crate::flight::rows::TermsRow;
use crate::webhooks::outbox::enqueue_events;

/// Every terms version of the operator, oldest first; a read of one statement, shared
/// with the reads asked for together with it.
pub(crate) async fn terms_versions(store: &PgStore, operator: OperatorId) -> Result<Vec<TermsRecord>, StoreError> {
    let conn = store.shared_conn().await?;
    let rows: Vec<TermsRow> = flight_terms::table
        .filter(flight_terms::operator_id.eq(uuid_of(operator)))
        .order((flight_terms::effective_from, flight_terms::id))
        .select(TermsRow::as_select())
        .load(&mut &*conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(TermsRow::into_record).collect()
}

pub(crate) async fn add_terms(store: &PgStore, terms: &TermsRecord) -> Result<(), StoreError> {
    let mut conn = store.conn().await?;
    diesel::insert_into(flight_terms::table)
        .values(TermsRow::new(terms))
        .execute(&mut conn)
        .await
        .map(drop)
        .map_err(from_diesel)
}

pub(crate) async fn schedule_terms(store: &PgStore, terms: &TermsRecord, event: &NewEvent) -> Result<(), StoreError> {
    let mut conn = store.conn().await?;
    conn.transaction::<_, diesel::result::Error, _>(async |conn| {
        diesel::insert_into(flight_terms::table)
            .values(TermsRow::new(terms))
            .execute(conn)
            .await?;
        enqueue_events(conn, std::slice::from_ref(event)).await
    })
    .await
    .map_err(from_diesel)
}

pub(crate) async fn cancel_terms(
    store: &PgStore,
    operator: OperatorId,
    id: FlightTermsId,
    cancellation: &TermsCancellation,
) -> Result<bool, StoreError> {
    let mut conn = store.conn().await?;
    let changed = diesel::update(flight_terms::table)
        .filter(flight_terms::operator_id.eq(uuid_of(operator)))
        .filter(flight_terms::id.eq(uuid_of(id)))
        .filter(flight_terms::cancelled_at.is_null())
        .filter(flight_terms::effective_from.gt(cancellation.at))
        .set((
            flight_terms::cancelled_at.eq(cancellation.at),
            flight_terms::cancelled_by.eq(&cancellation.by),
        ))
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
    Ok(changed == 1)
}
