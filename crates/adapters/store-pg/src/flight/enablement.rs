//! Whether an operator's players may buy flight tickets: one row per operator, replaced
//! whole by each decision of platform staff.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::flight::model::Enablement;
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::flight_enablements;
use crate::flight::rows::EnablementRow;

/// The operator's stored switch; a read of one statement, so it shares the step's
/// connection with the reads asked for together with it (a purchase's opening).
pub(crate) async fn find_enablement(store: &PgStore, operator: OperatorId) -> Result<Option<Enablement>, StoreError> {
    let conn = store.shared_conn().await?;
    let row: Option<EnablementRow> = flight_enablements::table
        .find(uuid_of(operator))
        .select(EnablementRow::as_select())
        .first(&mut &*conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    Ok(row.map(EnablementRow::into_record))
}

pub(crate) async fn save_enablement(store: &PgStore, enablement: &Enablement) -> Result<(), StoreError> {
    let row = EnablementRow::new(enablement);
    let mut conn = store.conn().await?;
    diesel::insert_into(flight_enablements::table)
        .values(&row)
        .on_conflict(flight_enablements::operator_id)
        .do_update()
        .set(&row)
        .execute(&mut conn)
        .await
        .map(drop)
        .map_err(from_diesel)
}
