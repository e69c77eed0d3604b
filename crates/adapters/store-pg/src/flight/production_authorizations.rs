//! An operator's production authorizations: inserted once, never edited; revoking stamps
//! every one still in force, once (the database refuses anything else); read all at
//! once (an operator has a handful). A new ticket reads them `FOR SHARE` in its own
//! transaction (`authorized_in`), so a revocation and a purchase are ordered: a ticket
//! stored before the revocation committed is bought, one after it is refused.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_flight::{
    AuthorizationReference, AuthorizationRequirement, ProductionAuthorization, Revocation, authorizes_purchase,
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::flight_production_authorizations as authorizations;

/// A `flight_production_authorizations` row.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = authorizations, check_for_backend(diesel::pg::Pg))]
pub(crate) struct AuthorizationRow {
    operator_id: Uuid,
    id: Uuid,
    reference: String,
    recorded_at: OffsetDateTime,
    recorded_by: String,
    expires_at: Option<OffsetDateTime>,
    revoked_at: Option<OffsetDateTime>,
    revoked_by: Option<String>,
}

impl AuthorizationRow {
    fn new(record: &ProductionAuthorization) -> Self {
        Self {
            operator_id: uuid_of(record.operator_id),
            id: uuid_of(record.id),
            reference: record.reference.as_str().to_owned(),
            recorded_at: record.recorded_at,
            recorded_by: record.recorded_by.clone(),
            expires_at: record.expires_at,
            revoked_at: record.revocation.as_ref().map(|revocation| revocation.at),
            revoked_by: record.revocation.as_ref().map(|revocation| revocation.by.clone()),
        }
    }

    fn into_record(self) -> Result<ProductionAuthorization, StoreError> {
        const TABLE: &str = "flight_production_authorizations";
        let id = self.id;
        let bad = |problem: &dyn std::fmt::Display| corrupt(TABLE, id, problem);
        Ok(ProductionAuthorization {
            id: id_of(id),
            operator_id: id_of(self.operator_id),
            reference: AuthorizationReference::new(&self.reference).map_err(|problem| bad(&problem))?,
            recorded_at: self.recorded_at,
            recorded_by: self.recorded_by,
            expires_at: self.expires_at,
            revocation: match (self.revoked_at, self.revoked_by) {
                (Some(at), Some(by)) => Some(Revocation { at, by }),
                (None, None) => None,
                _ => return Err(bad(&"a revocation without its time or its author")),
            },
        })
    }
}

/// The operator's authorizations, oldest first; a read of one statement, shared with the
/// reads asked for together with it.
pub(crate) async fn production_authorizations(
    store: &PgStore,
    operator: OperatorId,
) -> Result<Vec<ProductionAuthorization>, StoreError> {
    let conn = store.shared_conn().await?;
    let rows: Vec<AuthorizationRow> = authorizations::table
        .filter(authorizations::operator_id.eq(uuid_of(operator)))
        .order((authorizations::recorded_at, authorizations::id))
        .select(AuthorizationRow::as_select())
        .load(&mut &*conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(AuthorizationRow::into_record).collect()
}

pub(crate) async fn add_production_authorization(
    store: &PgStore,
    record: &ProductionAuthorization,
) -> Result<(), StoreError> {
    let mut conn = store.conn().await?;
    diesel::insert_into(authorizations::table)
        .values(AuthorizationRow::new(record))
        .execute(&mut conn)
        .await
        .map(drop)
        .map_err(from_diesel)
}

/// Stamps `revocation` on every authorization of the operator still in force at its
/// instant (not revoked, not expired); returns how many it stopped.
pub(crate) async fn revoke_production_authorizations(
    store: &PgStore,
    operator: OperatorId,
    revocation: &Revocation,
) -> Result<usize, StoreError> {
    let mut conn = store.conn().await?;
    diesel::update(authorizations::table)
        .filter(authorizations::operator_id.eq(uuid_of(operator)))
        .filter(authorizations::revoked_at.is_null())
        .filter(authorizations::recorded_at.le(revocation.at))
        .filter(
            authorizations::expires_at
                .is_null()
                .or(authorizations::expires_at.gt(revocation.at)),
        )
        .set((
            authorizations::revoked_at.eq(revocation.at),
            authorizations::revoked_by.eq(&revocation.by),
        ))
        .execute(&mut conn)
        .await
        .map_err(from_diesel)
}

/// Inside a ticket's transaction: whether its purchase, whose clock read `at`, may store
/// its debit (`opinion_flight::authorizes_purchase`) over the operator's rows read `FOR
/// SHARE` (a revocation waits for the transaction, or the transaction reads it).
pub(crate) async fn authorized_in(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    requirement: AuthorizationRequirement,
    at: OffsetDateTime,
) -> QueryResult<Result<bool, StoreError>> {
    if requirement == AuthorizationRequirement::NotRequired {
        return Ok(Ok(true));
    }
    let rows: Vec<AuthorizationRow> = authorizations::table
        .filter(authorizations::operator_id.eq(operator))
        .select(AuthorizationRow::as_select())
        .for_share()
        .load(conn)
        .await?;
    let records: Result<Vec<_>, _> = rows.into_iter().map(AuthorizationRow::into_record).collect();
    Ok(records.map(|records| authorizes_purchase(requirement, &records, at)))
}
