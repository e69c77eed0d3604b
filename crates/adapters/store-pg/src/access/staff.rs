//! `StaffStore`: dashboard staff members. Disabling a member or resetting their
//! password ends all their sessions in the same transaction, so no token outlives it; a
//! member changing their own password ends all but the session they changed it in.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_access::OperatorCap;
use opinion_app::access::ports::StaffStore;
use opinion_app::model::{StaffMember, StaffPatch};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, StaffId, StaffKind, StaffSessionId};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::access::rows::{NewStaffRow, StaffChanges, StaffRow};
use crate::db::caps::{has_room, made_or_full, take_operator};
use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::pool::PgStore;
use crate::db::schema::{staff_members, staff_sessions};

/// Ends every live session of a member at `at`, but `keep`; sessions already ended keep
/// their time.
async fn end_member_sessions(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    staff: Uuid,
    keep: Option<Uuid>,
    at: OffsetDateTime,
) -> Result<(), DieselError> {
    let ended = diesel::update(
        staff_sessions::table
            .filter(staff_sessions::operator_id.eq(operator))
            .filter(staff_sessions::staff_id.eq(staff))
            .filter(staff_sessions::ended_at.is_null())
            .filter(staff_sessions::id.ne_all(Vec::from_iter(keep))),
    )
    .set(staff_sessions::ended_at.eq(at))
    .execute(conn)
    .await?;
    tracing::debug!(ended, "ended the member's sessions");
    Ok(())
}

/// The operator's enabled members, but `except` (a member being enabled again).
async fn enabled_members(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    except: Option<Uuid>,
) -> Result<i64, DieselError> {
    let mut enabled = staff_members::table
        .filter(staff_members::operator_id.eq(operator))
        .filter(staff_members::disabled.eq(false))
        .into_boxed();
    if let Some(except) = except {
        enabled = enabled.filter(staff_members::id.ne(except));
    }
    enabled.count().get_result(conn).await
}

#[async_trait]
impl StaffStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %member.operator_id, staff_id = %member.id))]
    async fn insert_staff(&self, member: &StaffMember, password_hash: &str) -> Result<(), StoreError> {
        let operator = uuid_of(member.operator_id);
        let row = NewStaffRow::new(member, password_hash);
        let cap = OperatorCap::EnabledStaff;
        let mut conn = self.conn().await?;
        let made = conn
            .transaction::<_, DieselError, _>(async |conn| {
                take_operator(conn, operator).await?;
                let counted = if member.disabled {
                    0
                } else {
                    enabled_members(conn, operator, None).await?
                };
                if !has_room(cap, counted) {
                    return Ok(false);
                }
                diesel::insert_into(staff_members::table)
                    .values(&row)
                    .execute(conn)
                    .await?;
                Ok(true)
            })
            .await
            .map_err(from_diesel)?;
        made_or_full(made, cap)
    }

    #[tracing::instrument(skip_all)]
    async fn find_staff_login(&self, email: &str) -> Result<Option<(StaffMember, String)>, StoreError> {
        let mut conn = self.conn().await?;
        let row = staff_members::table
            .filter(staff_members::email.eq(email))
            .select((StaffRow::as_select(), staff_members::password_hash))
            .first::<(StaffRow, String)>(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(|(member, hash)| Ok((member.into_record()?, hash))).transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, staff_id = %id))]
    async fn find_staff(&self, operator: OperatorId, id: StaffId) -> Result<Option<StaffMember>, StoreError> {
        let mut conn = self.conn().await?;
        staff_members::table
            .find((uuid_of(operator), uuid_of(id)))
            .select(StaffRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(StaffRow::into_record)
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_staff(
        &self,
        operator: OperatorId,
        page: PageRequest<StaffKind>,
    ) -> Result<Page<StaffMember, StaffKind>, StoreError> {
        let mut query = staff_members::table
            .filter(staff_members::operator_id.eq(uuid_of(operator)))
            .select(StaffRow::as_select())
            .order(staff_members::id.desc())
            .into_boxed();
        if let Some(after) = page.after {
            query = query.filter(staff_members::id.lt(uuid_of(after.position())));
        }
        let mut conn = self.conn().await?;
        let rows = keyset_page(query, &page).load(&mut conn).await.map_err(from_diesel)?;
        let members = rows
            .into_iter()
            .map(StaffRow::into_record)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Page::from_overfetch(members, page.limit, |member| member.id))
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, staff_id = %id))]
    async fn update_staff(
        &self,
        operator: OperatorId,
        id: StaffId,
        patch: &StaffPatch,
        at: OffsetDateTime,
    ) -> Result<Option<StaffMember>, StoreError> {
        let (operator, id) = (uuid_of(operator), uuid_of(id));
        let changes = StaffChanges::new(patch, at);
        let disabling = patch.disabled == Some(true);
        let enabling = patch.disabled == Some(false);
        let cap = OperatorCap::EnabledStaff;
        let mut conn = self.conn().await?;
        let (made, row) = conn
            .transaction::<_, DieselError, _>(async |conn| {
                if enabling {
                    take_operator(conn, operator).await?;
                    if !has_room(cap, enabled_members(conn, operator, Some(id)).await?) {
                        return Ok((false, None));
                    }
                }
                let row = diesel::update(staff_members::table.find((operator, id)))
                    .set(&changes)
                    .returning(StaffRow::as_returning())
                    .get_result(conn)
                    .await
                    .optional()?;
                if row.is_some() && disabling {
                    end_member_sessions(conn, operator, id, None, at).await?;
                }
                Ok((true, row))
            })
            .await
            .map_err(from_diesel)?;
        made_or_full(made, cap)?;
        row.map(StaffRow::into_record).transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, staff_id = %id))]
    async fn reset_staff_password(
        &self,
        operator: OperatorId,
        id: StaffId,
        password_hash: &str,
        at: OffsetDateTime,
    ) -> Result<Option<StaffMember>, StoreError> {
        self.set_password(operator, id, password_hash, None, at).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, staff_id = %id))]
    async fn find_staff_password(
        &self,
        operator: OperatorId,
        id: StaffId,
    ) -> Result<Option<(StaffMember, String)>, StoreError> {
        let mut conn = self.conn().await?;
        let row = staff_members::table
            .find((uuid_of(operator), uuid_of(id)))
            .select((StaffRow::as_select(), staff_members::password_hash))
            .first::<(StaffRow, String)>(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(|(member, hash)| Ok((member.into_record()?, hash))).transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, staff_id = %id, session_id = %keep))]
    async fn change_own_password(
        &self,
        operator: OperatorId,
        id: StaffId,
        password_hash: &str,
        keep: StaffSessionId,
        at: OffsetDateTime,
    ) -> Result<Option<StaffMember>, StoreError> {
        self.set_password(operator, id, password_hash, Some(keep), at).await
    }
}

impl PgStore {
    /// Stores a member's new password hash and ends its sessions but `keep`, in one
    /// transaction; `None` when the member is not the operator's.
    async fn set_password(
        &self,
        operator: OperatorId,
        id: StaffId,
        password_hash: &str,
        keep: Option<StaffSessionId>,
        at: OffsetDateTime,
    ) -> Result<Option<StaffMember>, StoreError> {
        let (operator, id, keep) = (uuid_of(operator), uuid_of(id), keep.map(uuid_of));
        let mut conn = self.conn().await?;
        let row = conn
            .transaction::<_, DieselError, _>(async |conn| {
                let row = diesel::update(staff_members::table.find((operator, id)))
                    .set((
                        staff_members::password_hash.eq(password_hash),
                        staff_members::updated_at.eq(at),
                    ))
                    .returning(StaffRow::as_returning())
                    .get_result(conn)
                    .await
                    .optional()?;
                if row.is_some() {
                    end_member_sessions(conn, operator, id, keep, at).await?;
                }
                Ok(row)
            })
            .await
            .map_err(from_diesel)?;
        row.map(StaffRow::into_record).transpose()
    }
}
