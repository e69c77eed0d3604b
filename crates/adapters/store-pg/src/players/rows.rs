//! Player rows: players as launches insert them and as every read reads them back,
//! launches as created and read back, and player sessions (with the locale they keep)
//! as read.

use diesel::prelude::*;
use opinion_app::model::{Launch, PlayerSession, User};
use opinion_app::ports::StoreError;
use opinion_launch::{LaunchMetadata, Locale};
use opinion_wallet::Product;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::corrupt;
use crate::db::ids::{id_of, uuid_of};
use crate::db::schema::{launches, player_sessions, users};

/// A `users` row, read whole.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users, check_for_backend(diesel::pg::Pg))]
pub(crate) struct UserRow {
    operator_id: Uuid,
    id: Uuid,
    external_user_id: String,
    display_name: Option<String>,
    language: Option<String>,
    created_at: OffsetDateTime,
    last_launched_at: OffsetDateTime,
}

impl UserRow {
    /// The player this row stores.
    pub(crate) fn into_record(self) -> User {
        User {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            external_user_id: self.external_user_id,
            display_name: self.display_name,
            language: self.language,
            created_at: self.created_at,
            last_launched_at: self.last_launched_at,
        }
    }
}

/// A `users` row as first inserted at a launch.
#[derive(Debug, Insertable)]
#[diesel(table_name = users, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewUserRow {
    operator_id: Uuid,
    id: Uuid,
    external_user_id: String,
    display_name: Option<String>,
    language: Option<String>,
    created_at: OffsetDateTime,
    last_launched_at: OffsetDateTime,
}

impl NewUserRow {
    /// The row that stores `user`.
    pub(crate) fn new(user: &User) -> Self {
        Self {
            operator_id: uuid_of(user.operator_id),
            id: uuid_of(user.id),
            external_user_id: user.external_user_id.clone(),
            display_name: user.display_name.clone(),
            language: user.language.clone(),
            created_at: user.created_at,
            last_launched_at: user.last_launched_at,
        }
    }
}

/// A `launches` row as created.
#[derive(Debug, Insertable)]
#[diesel(table_name = launches, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewLaunchRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    return_url: Option<String>,
    created_at: OffsetDateTime,
    expires_at: OffsetDateTime,
    locale: Option<String>,
    metadata: Option<serde_json::Value>,
    product: &'static str,
}

impl NewLaunchRow {
    /// The row that stores `launch` for the player `user_id`.
    pub(crate) fn new(launch: &Launch, user_id: Uuid) -> Self {
        Self {
            operator_id: uuid_of(launch.operator_id),
            id: uuid_of(launch.id),
            user_id,
            return_url: launch.return_url.clone(),
            created_at: launch.created_at,
            expires_at: launch.expires_at,
            locale: launch.locale.as_ref().map(|locale| locale.as_str().to_owned()),
            metadata: launch.metadata.as_ref().map(LaunchMetadata::to_value),
            product: launch.product.as_str(),
        }
    }
}

/// A stored product name read back; an unknown one is a corrupt row of `table`.
pub(crate) fn product_of(table: &str, id: Uuid, text: &str) -> Result<Product, StoreError> {
    text.parse().map_err(|problem| corrupt(table, id, &problem))
}

/// A stored locale read back; one the domain refuses is a corrupt row of `table`.
pub(crate) fn locale_of(table: &str, id: Uuid, text: Option<String>) -> Result<Option<Locale>, StoreError> {
    text.map(|text| Locale::parse(&text).map_err(|problem| corrupt(table, id, &problem)))
        .transpose()
}

/// A `launches` row as read back.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = launches, check_for_backend(diesel::pg::Pg))]
pub(crate) struct LaunchRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    return_url: Option<String>,
    created_at: OffsetDateTime,
    expires_at: OffsetDateTime,
    locale: Option<String>,
    metadata: Option<serde_json::Value>,
    product: String,
}

impl LaunchRow {
    /// The launch this row stores; a locale or metadata the domain refuses is corrupt.
    pub(crate) fn into_record(self) -> Result<Launch, StoreError> {
        let metadata = self
            .metadata
            .map(|value| LaunchMetadata::parse(value).map_err(|problem| corrupt("launches", self.id, &problem)))
            .transpose()?;
        Ok(Launch {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            user_id: id_of(self.user_id),
            return_url: self.return_url,
            locale: locale_of("launches", self.id, self.locale)?,
            metadata,
            product: product_of("launches", self.id, &self.product)?,
            created_at: self.created_at,
            expires_at: self.expires_at,
        })
    }
}

/// A `player_sessions` row as read.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = player_sessions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct PlayerSessionRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    launch_id: Uuid,
    created_at: OffsetDateTime,
    expires_at: OffsetDateTime,
    ended_at: Option<OffsetDateTime>,
    locale: Option<String>,
    product: String,
}

impl PlayerSessionRow {
    /// The session this row stores; a locale the domain refuses is corrupt.
    pub(crate) fn into_record(self) -> Result<PlayerSession, StoreError> {
        Ok(PlayerSession {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            user_id: id_of(self.user_id),
            launch_id: id_of(self.launch_id),
            locale: locale_of("player_sessions", self.id, self.locale)?,
            product: product_of("player_sessions", self.id, &self.product)?,
            created_at: self.created_at,
            expires_at: self.expires_at,
            ended_at: self.ended_at,
        })
    }
}
