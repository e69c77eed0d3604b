//! `SessionStore`: server-side staff sessions, read together with their member so a
//! request sees the member's current scopes and status.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::access::ports::SessionStore;
use opinion_app::model::{StaffMember, StaffSession};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, StaffSessionId};
use time::OffsetDateTime;

use crate::access::rows::{SessionRow, StaffRow};
use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::{staff_members, staff_sessions};

#[async_trait]
impl SessionStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %session.operator_id, session_id = %session.id))]
    async fn insert_session(&self, session: &StaffSession) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(staff_sessions::table)
            .values(SessionRow::from_record(session))
            .execute(&mut conn)
            .await
            .map(drop)
            .map_err(from_diesel)
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, session_id = %id))]
    async fn find_session(
        &self,
        operator: OperatorId,
        id: StaffSessionId,
    ) -> Result<Option<(StaffSession, StaffMember)>, StoreError> {
        let mut conn = self.conn().await?;
        let row = staff_sessions::table
            .inner_join(
                staff_members::table.on(staff_members::operator_id
                    .eq(staff_sessions::operator_id)
                    .and(staff_members::id.eq(staff_sessions::staff_id))),
            )
            .filter(staff_sessions::operator_id.eq(uuid_of(operator)))
            .filter(staff_sessions::id.eq(uuid_of(id)))
            .select((SessionRow::as_select(), StaffRow::as_select()))
            .first::<(SessionRow, StaffRow)>(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(|(session, member)| Ok((session.into_record(), member.into_record()?)))
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, session_id = %id))]
    async fn end_session(
        &self,
        operator: OperatorId,
        id: StaffSessionId,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::update(
            staff_sessions::table
                .find((uuid_of(operator), uuid_of(id)))
                .filter(staff_sessions::ended_at.is_null()),
        )
        .set(staff_sessions::ended_at.eq(at))
        .execute(&mut conn)
        .await
        .map(drop)
        .map_err(from_diesel)
    }
}
