//! The operator's players.

use diesel::dsl::auto_type;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::User;
use opinion_app::opinion::reads::ports::UserFilter;
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, UserId, UserKind};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::users;
use crate::players::rows::UserRow;

/// The id of the operator's player known by `external`, as a scalar subquery: a list
/// filtered by player then walks its `(operator_id, user_id, id)` index.
#[auto_type]
pub(crate) fn id_known_as(operator: Uuid, external: String) -> _ {
    users::table
        .filter(users::operator_id.eq(operator))
        .filter(users::external_user_id.eq(external))
        .select(users::id)
        .single_value()
}

/// One page of players, newest first.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &UserFilter,
    page: PageRequest<UserKind>,
) -> Result<Page<User, UserKind>, StoreError> {
    let mut query = users::table
        .filter(users::operator_id.eq(uuid_of(operator)))
        .select(UserRow::as_select())
        .order(users::id.desc())
        .into_boxed();
    if let Some(external) = &filter.external_user_id {
        query = query.filter(users::external_user_id.eq(external.clone()));
    }
    if let Some(from) = filter.created.from {
        query = query.filter(users::created_at.ge(from));
    }
    if let Some(to) = filter.created.to {
        query = query.filter(users::created_at.lt(to));
    }
    if let Some(after) = page.after {
        query = query.filter(users::id.lt(uuid_of(after.position())));
    }
    let rows = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let users = rows.into_iter().map(UserRow::into_record).collect();
    Ok(Page::from_overfetch(users, page.limit, |user: &User| user.id))
}

/// The player the operator knows as `external_user_id`.
pub(super) async fn find_by_external_id(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    external_user_id: &str,
) -> Result<Option<User>, StoreError> {
    users::table
        .filter(users::operator_id.eq(uuid_of(operator)))
        .filter(users::external_user_id.eq(external_user_id))
        .select(UserRow::as_select())
        .first(conn)
        .await
        .optional()
        .map(|row| row.map(UserRow::into_record))
        .map_err(from_diesel)
}

/// The player with this id.
pub(super) async fn find(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    id: UserId,
) -> Result<Option<User>, StoreError> {
    users::table
        .find((uuid_of(operator), uuid_of(id)))
        .select(UserRow::as_select())
        .first(conn)
        .await
        .optional()
        .map(|row| row.map(UserRow::into_record))
        .map_err(from_diesel)
}
