//! `ApiKeyStore`: operator API keys, found by their secret's hash when presented and
//! otherwise always through their operator.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{Nullable, Timestamptz};
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_access::{OperatorCap, SecretHash};
use opinion_app::access::ports::ApiKeyStore;
use opinion_app::model::{ApiKeyRecord, ApiKeyUse};
use opinion_app::ports::StoreError;
use opinion_core::{ApiKeyId, ApiKeyKind, OperatorId, Page, PageRequest};
use time::OffsetDateTime;

use crate::access::rows::{ApiKeyRow, NewApiKeyRow, inet_of};
use crate::db::caps::{has_room, made_or_full, take_operator};
use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::pool::PgStore;
use crate::db::schema::api_keys;

diesel::define_sql_function! {
    /// SQL `coalesce` of two nullable timestamps: the first that is not null.
    fn coalesce(first: Nullable<Timestamptz>, second: Nullable<Timestamptz>) -> Nullable<Timestamptz>;
}

#[async_trait]
impl ApiKeyStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %key.operator_id, api_key_id = %key.id))]
    async fn insert_api_key(&self, key: &ApiKeyRecord, hash: &SecretHash) -> Result<(), StoreError> {
        let operator = uuid_of(key.operator_id);
        let row = NewApiKeyRow::new(key, hash);
        let cap = OperatorCap::ActiveApiKeys;
        let mut conn = self.conn().await?;
        let made = conn
            .transaction::<_, DieselError, _>(async |conn| {
                take_operator(conn, operator).await?;
                let active: i64 = api_keys::table
                    .filter(api_keys::operator_id.eq(operator))
                    .filter(api_keys::revoked_at.is_null())
                    .filter(
                        api_keys::expires_at
                            .is_null()
                            .or(api_keys::expires_at.gt(diesel::dsl::now)),
                    )
                    .count()
                    .get_result(conn)
                    .await?;
                if !has_room(cap, active) {
                    return Ok(false);
                }
                diesel::insert_into(api_keys::table).values(&row).execute(conn).await?;
                Ok(true)
            })
            .await
            .map_err(from_diesel)?;
        made_or_full(made, cap)
    }

    #[tracing::instrument(skip_all)]
    async fn find_api_key_by_hash(&self, hash: &SecretHash) -> Result<Option<ApiKeyRecord>, StoreError> {
        let mut conn = self.conn().await?;
        api_keys::table
            .filter(api_keys::secret_hash.eq(&hash.0))
            .select(ApiKeyRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(ApiKeyRow::into_record)
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_api_key(&self, operator: OperatorId, id: ApiKeyId) -> Result<Option<ApiKeyRecord>, StoreError> {
        let mut conn = self.conn().await?;
        api_keys::table
            .find((uuid_of(operator), uuid_of(id)))
            .select(ApiKeyRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(ApiKeyRow::into_record)
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn list_api_keys(
        &self,
        operator: OperatorId,
        page: PageRequest<ApiKeyKind>,
    ) -> Result<Page<ApiKeyRecord, ApiKeyKind>, StoreError> {
        let mut query = api_keys::table
            .filter(api_keys::operator_id.eq(uuid_of(operator)))
            .select(ApiKeyRow::as_select())
            .order(api_keys::id.desc())
            .into_boxed();
        if let Some(after) = page.after {
            query = query.filter(api_keys::id.lt(uuid_of(after.position())));
        }
        let mut conn = self.conn().await?;
        let rows = keyset_page(query, &page).load(&mut conn).await.map_err(from_diesel)?;
        let records = rows
            .into_iter()
            .map(ApiKeyRow::into_record)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Page::from_overfetch(records, page.limit, |key| key.id))
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, api_key_id = %id))]
    async fn revoke_api_key(
        &self,
        operator: OperatorId,
        id: ApiKeyId,
        at: OffsetDateTime,
    ) -> Result<Option<ApiKeyRecord>, StoreError> {
        let mut conn = self.conn().await?;
        diesel::update(api_keys::table.find((uuid_of(operator), uuid_of(id))))
            .set(api_keys::revoked_at.eq(coalesce(api_keys::revoked_at, Some(at))))
            .returning(ApiKeyRow::as_returning())
            .get_result(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(ApiKeyRow::into_record)
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator, api_key_id = %id))]
    async fn record_api_key_use(
        &self,
        operator: OperatorId,
        id: ApiKeyId,
        key_use: &ApiKeyUse,
        unless_used_since: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::update(
            api_keys::table.find((uuid_of(operator), uuid_of(id))).filter(
                api_keys::last_used_at
                    .is_null()
                    .or(api_keys::last_used_at.lt(unless_used_since)),
            ),
        )
        .set((
            api_keys::last_used_at.eq(key_use.at),
            api_keys::last_used_ip.eq(key_use.ip.map(inet_of)),
            api_keys::last_used_user_agent.eq(key_use.user_agent.as_ref().map(|agent| agent.as_str())),
        ))
        .execute(&mut conn)
        .await
        .map(drop)
        .map_err(from_diesel)
    }
}
