//! `PlayerStore` for PostgreSQL: the player, launch and player session rows. Every
//! tenant query names the operator; the expiry sweep alone reads across operators.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::model::{Launch, NewEvent, PlayerSession, SessionEnding, User};
use opinion_app::players::ports::PlayerStore;
use opinion_app::ports::StoreError;
use opinion_core::{LaunchId, OperatorId, PlayerSessionId};
use time::OffsetDateTime;

use crate::db::error::from_diesel;
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::{launches, player_sessions, users};
use crate::players::rows::{LaunchRow, NewLaunchRow, NewUserRow, PlayerSessionRow, UserRow, locale_of, product_of};
use crate::webhooks::outbox::enqueue_events;

/// A session row joined with its player.
#[diesel::dsl::auto_type]
fn with_player() -> _ {
    player_sessions::table.inner_join(
        users::table.on(users::operator_id
            .eq(player_sessions::operator_id)
            .and(users::id.eq(player_sessions::user_id))),
    )
}

#[async_trait]
impl PlayerStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %user.operator_id))]
    async fn record_launch(&self, user: &User, launch: &Launch) -> Result<User, StoreError> {
        let new_user = NewUserRow::new(user);
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            let stored: UserRow = diesel::insert_into(users::table)
                .values(&new_user)
                .on_conflict((users::operator_id, users::external_user_id))
                .do_update()
                .set((
                    users::display_name.eq(
                        diesel::dsl::sql::<diesel::sql_types::Nullable<diesel::sql_types::Text>>(
                            "coalesce(excluded.display_name, users.display_name)",
                        ),
                    ),
                    users::language.eq(
                        diesel::dsl::sql::<diesel::sql_types::Nullable<diesel::sql_types::Text>>(
                            "coalesce(excluded.language, users.language)",
                        ),
                    ),
                    users::last_launched_at.eq(user.last_launched_at),
                ))
                .returning(UserRow::as_returning())
                .get_result(conn)
                .await?;
            let stored = stored.into_record();
            diesel::insert_into(launches::table)
                .values(NewLaunchRow::new(launch, uuid_of(stored.id)))
                .execute(conn)
                .await?;
            Ok(stored)
        })
        .await
        .map_err(from_diesel)
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, launch_id = %launch))]
    async fn find_launch(&self, operator: OperatorId, launch: LaunchId) -> Result<Option<(Launch, User)>, StoreError> {
        let mut conn = self.conn().await?;
        let found: Option<(LaunchRow, UserRow)> = launches::table
            .inner_join(
                users::table.on(users::operator_id
                    .eq(launches::operator_id)
                    .and(users::id.eq(launches::user_id))),
            )
            .filter(launches::operator_id.eq(uuid_of(operator)))
            .filter(launches::id.eq(uuid_of(launch)))
            .select((LaunchRow::as_select(), UserRow::as_select()))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        found
            .map(|(launch, user)| Ok((launch.into_record()?, user.into_record())))
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, launch_id = %launch))]
    async fn open_player_session(
        &self,
        operator: OperatorId,
        launch: LaunchId,
        id: PlayerSessionId,
        at: OffsetDateTime,
        expires_at: OffsetDateTime,
        event: &NewEvent,
    ) -> Result<Option<(PlayerSession, User)>, StoreError> {
        let op = uuid_of(operator);
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            let used: Option<(uuid::Uuid, Option<String>, String)> = diesel::update(
                launches::table
                    .find((op, uuid_of(launch)))
                    .filter(launches::used_at.is_null())
                    .filter(launches::expires_at.gt(at)),
            )
            .set(launches::used_at.eq(at))
            .returning((launches::user_id, launches::locale, launches::product))
            .get_result(conn)
            .await
            .optional()?;
            let Some((user_id, locale, product)) = used else {
                return Ok(None);
            };
            diesel::insert_into(player_sessions::table)
                .values((
                    player_sessions::operator_id.eq(op),
                    player_sessions::id.eq(uuid_of(id)),
                    player_sessions::user_id.eq(user_id),
                    player_sessions::launch_id.eq(uuid_of(launch)),
                    player_sessions::created_at.eq(at),
                    player_sessions::expires_at.eq(expires_at),
                    player_sessions::locale.eq(&locale),
                    player_sessions::product.eq(&product),
                ))
                .execute(conn)
                .await?;
            let user: UserRow = users::table
                .find((op, user_id))
                .select(UserRow::as_select())
                .first(conn)
                .await?;
            enqueue_events(conn, std::slice::from_ref(event)).await?;
            Ok(Some((user_id, locale, product, user)))
        })
        .await
        .map_err(from_diesel)?
        .map(|(user_id, locale, product, user)| {
            let session = PlayerSession {
                id,
                operator_id: operator,
                user_id: id_of(user_id),
                launch_id: launch,
                locale: locale_of("player_sessions", uuid_of(id), locale)?,
                product: product_of("player_sessions", uuid_of(id), &product)?,
                created_at: at,
                expires_at,
                ended_at: None,
            };
            Ok((session, user.into_record()))
        })
        .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_player_session(
        &self,
        operator: OperatorId,
        id: PlayerSessionId,
    ) -> Result<Option<(PlayerSession, User)>, StoreError> {
        let conn = self.shared_conn().await?;
        let found: Option<(PlayerSessionRow, UserRow)> = with_player()
            .filter(player_sessions::operator_id.eq(uuid_of(operator)))
            .filter(player_sessions::id.eq(uuid_of(id)))
            .select((PlayerSessionRow::as_select(), UserRow::as_select()))
            .first(&mut &*conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        found
            .map(|(session, user)| Ok((session.into_record()?, user.into_record())))
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %ending.operator_id, player_session_id = %ending.session_id))]
    async fn end_player_session(&self, ending: &SessionEnding) -> Result<bool, StoreError> {
        self.end_session_row(ending).await
    }

    #[tracing::instrument(skip_all, fields(limit))]
    async fn expired_player_sessions(
        &self,
        now: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<(PlayerSession, User)>, StoreError> {
        let mut conn = self.conn().await?;
        let rows: Vec<(PlayerSessionRow, UserRow)> = with_player()
            .filter(player_sessions::ended_at.is_null())
            .filter(player_sessions::expires_at.le(now))
            .order((player_sessions::expires_at, player_sessions::id))
            .limit(i64::from(limit))
            .select((PlayerSessionRow::as_select(), UserRow::as_select()))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.into_iter()
            .map(|(session, user)| Ok((session.into_record()?, user.into_record())))
            .collect()
    }
}
