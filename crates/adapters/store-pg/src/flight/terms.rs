//! An operator's flight terms versions: inserted once, never edited (a cancellation is
//! the back office's own write), read all at once (an operator has a handful).

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::flight::model::TermsRecord;
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::flight_terms;
use crate::flight::rows::TermsRow;

pub(crate) async fn terms_versions(store: &PgStore, operator: OperatorId) -> Result<Vec<TermsRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<TermsRow> = flight_terms::table
        .filter(flight_terms::operator_id.eq(uuid_of(operator)))
        .order((flight_terms::effective_from, flight_terms::id))
        .select(TermsRow::as_select())
        .load(&mut conn)
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
