//! `StatementKeyStore`: the public halves of the platform's statement keys. Registering
//! a key takes the table's lock, so two instances starting with a new key at once make
//! it current once; the database itself allows one current key and only ever a key's
//! retirement (a trigger).

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{Nullable, Timestamptz};
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::flight::office::model::StatementKeyRecord;
use opinion_app::flight::office::ports::StatementKeyStore;
use opinion_app::ports::StoreError;
use opinion_statement::PublicKey;
use time::OffsetDateTime;

use crate::db::error::{corrupt, from_diesel};
use crate::db::pool::PgStore;
use crate::db::schema::statement_keys;

/// A row of `statement_keys`.
#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = statement_keys, check_for_backend(diesel::pg::Pg))]
struct KeyRow {
    key_id: String,
    public_key: String,
    created_at: OffsetDateTime,
    retired_at: Option<OffsetDateTime>,
}

impl KeyRow {
    fn new(record: &StatementKeyRecord) -> Self {
        Self {
            key_id: record.key_id.to_string(),
            public_key: record.public_key.to_hex(),
            created_at: record.created_at,
            retired_at: record.retired_at,
        }
    }

    /// The record; the id must be the one derived from the public key.
    fn into_record(self) -> Result<StatementKeyRecord, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("statement_keys", uuid::Uuid::nil(), problem);
        let public_key = PublicKey::from_hex(&self.public_key).map_err(|error| bad(&error))?;
        if public_key.key_id().as_str() != self.key_id {
            return Err(bad(&format!(
                "key id {} is not derived from its public key",
                self.key_id
            )));
        }
        Ok(StatementKeyRecord {
            key_id: public_key.key_id(),
            public_key,
            created_at: self.created_at,
            retired_at: self.retired_at,
        })
    }
}

async fn load(conn: &mut diesel_async::AsyncPgConnection) -> Result<Vec<KeyRow>, diesel::result::Error> {
    statement_keys::table
        .order((statement_keys::created_at, statement_keys::key_id))
        .select(KeyRow::as_select())
        .load(conn)
        .await
}

#[async_trait]
impl StatementKeyStore for PgStore {
    async fn statement_keys(&self) -> Result<Vec<StatementKeyRecord>, StoreError> {
        let mut conn = self.conn().await?;
        let rows = load(&mut conn).await.map_err(from_diesel)?;
        rows.into_iter().map(KeyRow::into_record).collect()
    }

    #[tracing::instrument(skip_all, fields(key_id = %key.key_id))]
    async fn register_statement_key(&self, key: &StatementKeyRecord) -> Result<StatementKeyRecord, StoreError> {
        let mut conn = self.conn().await?;
        let row = conn
            .transaction::<_, diesel::result::Error, _>(async |conn| {
                diesel::sql_query("LOCK TABLE statement_keys IN SHARE ROW EXCLUSIVE MODE")
                    .execute(conn)
                    .await?;
                let known: Option<KeyRow> = statement_keys::table
                    .find(key.key_id.as_str())
                    .select(KeyRow::as_select())
                    .first(conn)
                    .await
                    .optional()?;
                if let Some(known) = known {
                    return Ok(known);
                }
                // Retired when the new key was created, or at its own creation when that
                // is later (another instance's clock behind, or a rival new key
                // registered first): a retirement never precedes its key's creation.
                let retired_at = sql::<Nullable<Timestamptz>>("greatest(created_at, ")
                    .bind::<Timestamptz, _>(key.created_at)
                    .sql(")");
                diesel::update(statement_keys::table)
                    .filter(statement_keys::retired_at.is_null())
                    .set(statement_keys::retired_at.eq(retired_at))
                    .execute(conn)
                    .await?;
                let row = KeyRow::new(key);
                diesel::insert_into(statement_keys::table)
                    .values(&row)
                    .execute(conn)
                    .await?;
                Ok(row)
            })
            .await
            .map_err(from_diesel)?;
        row.into_record()
    }
}
