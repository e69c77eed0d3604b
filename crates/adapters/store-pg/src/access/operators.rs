//! `OperatorStore`: tenants, created together with their first API key.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_access::{PlaygroundConsole, SecretHash};
use opinion_app::access::ports::OperatorStore;
use opinion_app::model::{ApiKeyRecord, Operator, PlaygroundSetting};
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use time::OffsetDateTime;

use crate::access::rows::{NewApiKeyRow, OperatorRow};
use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::{api_keys, operators, playground_settings};

#[async_trait]
impl OperatorStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %operator.id, api_key_id = %first_key.id))]
    async fn insert_operator(
        &self,
        operator: &Operator,
        first_key: &ApiKeyRecord,
        key_hash: &SecretHash,
    ) -> Result<(), StoreError> {
        let operator_row = OperatorRow::from_record(operator);
        let key_row = NewApiKeyRow::new(first_key, key_hash);
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            diesel::insert_into(operators::table)
                .values(&operator_row)
                .execute(conn)
                .await?;
            diesel::insert_into(api_keys::table)
                .values(&key_row)
                .execute(conn)
                .await?;
            Ok(())
        })
        .await
        .map_err(from_diesel)
    }

    #[tracing::instrument(skip_all, fields(operator_id = %id))]
    async fn find_operator(&self, id: OperatorId) -> Result<Option<Operator>, StoreError> {
        let conn = self.shared_conn().await?;
        let row = operators::table
            .find(uuid_of(id))
            .select(OperatorRow::as_select())
            .first(&mut &*conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(OperatorRow::into_record).transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_playground_setting(&self, operator: OperatorId) -> Result<PlaygroundSetting, StoreError> {
        let mut conn = self.conn().await?;
        let row: Option<(String, OffsetDateTime)> = playground_settings::table
            .find(uuid_of(operator))
            .select((playground_settings::console, playground_settings::updated_at))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some((console, updated_at)) = row else {
            return Ok(PlaygroundSetting::default());
        };
        let console = console
            .parse()
            .map_err(|error| StoreError::Unavailable(format!("stored playground console: {error}")))?;
        Ok(PlaygroundSetting {
            console,
            updated_at: Some(updated_at),
        })
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn save_playground_console(
        &self,
        operator: OperatorId,
        console: PlaygroundConsole,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(playground_settings::table)
            .values((
                playground_settings::operator_id.eq(uuid_of(operator)),
                playground_settings::console.eq(console.as_str()),
                playground_settings::updated_at.eq(at),
            ))
            .on_conflict(playground_settings::operator_id)
            .do_update()
            .set((
                playground_settings::console.eq(console.as_str()),
                playground_settings::updated_at.eq(at),
            ))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    #[tracing::instrument(skip_all)]
    async fn ping(&self) -> Result<(), StoreError> {
        self.select_one().await
    }
}
