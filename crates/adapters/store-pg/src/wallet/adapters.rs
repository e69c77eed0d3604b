//! `WalletAdapterConfigStore` and `WalletAdapterStore`: one row per operator, secrets
//! sealed under the data key and bound to their operator and slot. A change is written
//! only over the revision it was made from, so concurrent changes cannot both win.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::model::WalletAdapterConfig;
use opinion_app::ports::StoreError;
use opinion_app::wallet::ports::{WalletAdapterStore, WalletAdapterTarget};
use opinion_core::OperatorId;
use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout, RetiringSecret};
use opinion_webhook::SigningSecret;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel, unavailable};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::wallet_adapters;
use crate::db::sealed_places::wallet_adapter_secret;
use crate::db::sealing::DataKey;

const TABLE: &str = "wallet_adapters";

/// A `wallet_adapters` row, read and written whole.
#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = wallet_adapters, check_for_backend(diesel::pg::Pg), treat_none_as_null = true)]
struct WalletAdapterRow {
    operator_id: Uuid,
    base_url: String,
    timeout_ms: i32,
    secret_sealed: String,
    secret_hint: String,
    previous_secret_sealed: Option<String>,
    previous_secret_signs_until: Option<OffsetDateTime>,
    revision: i64,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl WalletAdapterRow {
    /// The row storing `config`, its secrets sealed with `key`.
    fn sealed(config: &WalletAdapterConfig, key: &DataKey) -> Result<Self, StoreError> {
        let operator = uuid_of(config.operator_id);
        let seal = |secret: &SigningSecret, slot: &str| {
            key.seal(secret.as_bytes(), &wallet_adapter_secret(operator, slot))
                .map_err(|error| unavailable("cannot seal a signing secret", &error))
        };
        let previous = config.secrets.previous();
        Ok(Self {
            operator_id: operator,
            base_url: config.base_url.as_str().to_owned(),
            timeout_ms: i32::try_from(config.timeout.as_millis()).unwrap_or(i32::MAX),
            secret_sealed: seal(config.secrets.current(), "current")?,
            secret_hint: config.secrets.hint(),
            previous_secret_sealed: previous.map(|p| seal(&p.secret, "previous")).transpose()?,
            previous_secret_signs_until: previous
                .map(|p| OffsetDateTime::from_unix_timestamp(p.signs_until))
                .transpose()
                .map_err(|error| unavailable("cannot store the overlap end", &error))?,
            revision: config.revision,
            created_at: config.created_at,
            updated_at: config.updated_at,
        })
    }

    /// The configuration this row stores, its secrets opened with `key`.
    fn opened(self, key: &DataKey) -> Result<WalletAdapterConfig, StoreError> {
        let id = self.operator_id;
        let bad = |problem: &dyn std::fmt::Display| corrupt(TABLE, id, problem);
        let open = |sealed: &str, slot: &str| {
            let bytes = key
                .open(sealed, &wallet_adapter_secret(id, slot))
                .map_err(|error| bad(&error))?;
            SigningSecret::from_random_bytes(&bytes).map_err(|error| bad(&error))
        };
        let previous = match (&self.previous_secret_sealed, self.previous_secret_signs_until) {
            (Some(sealed), Some(until)) => Some(RetiringSecret {
                secret: open(sealed, "previous")?,
                signs_until: until.unix_timestamp(),
            }),
            _ => None,
        };
        Ok(WalletAdapterConfig {
            operator_id: id_of(id),
            base_url: AdapterBaseUrl::parse(&self.base_url, false).map_err(|error| bad(&error))?,
            timeout: AdapterTimeout::from_millis(i64::from(self.timeout_ms)).map_err(|error| bad(&error))?,
            secrets: AdapterSecrets::restore(open(&self.secret_sealed, "current")?, previous),
            created_at: self.created_at,
            updated_at: self.updated_at,
            revision: self.revision,
        })
    }
}

#[async_trait]
impl WalletAdapterStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_wallet_adapter(&self, operator: OperatorId) -> Result<Option<WalletAdapterConfig>, StoreError> {
        let key = self.data_key()?;
        let conn = self.shared_conn().await?;
        let row = wallet_adapters::table
            .find(uuid_of(operator))
            .select(WalletAdapterRow::as_select())
            .first(&mut &*conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(|row| row.opened(key)).transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %config.operator_id, revision = config.revision))]
    async fn save_wallet_adapter(
        &self,
        config: &WalletAdapterConfig,
        expected: Option<i64>,
    ) -> Result<bool, StoreError> {
        let row = WalletAdapterRow::sealed(config, self.data_key()?)?;
        let mut conn = self.conn().await?;
        let written = match expected {
            None => {
                diesel::insert_into(wallet_adapters::table)
                    .values(&row)
                    .on_conflict(wallet_adapters::operator_id)
                    .do_nothing()
                    .execute(&mut conn)
                    .await
            }
            Some(revision) => {
                diesel::update(
                    wallet_adapters::table
                        .find(row.operator_id)
                        .filter(wallet_adapters::revision.eq(revision)),
                )
                .set(&row)
                .execute(&mut conn)
                .await
            }
        }
        .map_err(from_diesel)?;
        Ok(written == 1)
    }
    /// Signs with the secrets active now by the service's clock.
    async fn find_wallet_target(&self, operator: OperatorId) -> Result<Option<WalletAdapterTarget>, StoreError> {
        let config = self.find_wallet_adapter(operator).await?;
        Ok(config.map(|config| config.target(OffsetDateTime::now_utc())))
    }
}
