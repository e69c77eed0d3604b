//! The launch on the wire: the request, the player it creates or updates, and the
//! single-use launch it hands out. Times are RFC 3339 UTC.

use opinion_app::model::User;
use opinion_app::players::Launched;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// `POST /api/operator/launch`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LaunchBody {
    /// The operator's own id of the player.
    pub external_user_id: String,
    /// Name shown in the hosted app.
    pub display_name: Option<String>,
    /// The player's preferred language, kept across launches (BCP 47, at most 35
    /// characters).
    pub language: Option<String>,
    /// Where the hosted app sends the player back to.
    pub return_url: Option<String>,
    /// `flight`, or omitted for Opinion.
    pub product: Option<String>,
    /// One of the operator's launch hosts (see `/api/operator/launch-settings`): the
    /// launch URL is then `https://<host>/play#launch=…` instead of the service's own
    /// address.
    #[schema(example = "play.casino.example")]
    pub host: Option<String>,
    /// The locale of this launch's session (BCP 47, such as `en` or `pt-BR`, at most 35
    /// characters); without it the session uses the player's `language`.
    #[schema(example = "pt-BR")]
    pub locale: Option<String>,
    /// The operator's own JSON object (at most 4096 bytes as compact JSON), kept with the
    /// launch and echoed in this player's webhook events. The service never reads it.
    #[schema(value_type = Option<Object>, example = json!({"campaign": "spring"}))]
    pub metadata: Option<serde_json::Value>,
}

/// A player as the operator and the hosted app see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerBody {
    /// `usr_…`
    pub id: String,
    /// The operator's id of the player.
    pub external_user_id: String,
    /// Display name.
    pub display_name: Option<String>,
    /// Language.
    pub language: Option<String>,
}

impl From<User> for PlayerBody {
    fn from(user: User) -> Self {
        Self {
            id: user.id.to_string(),
            external_user_id: user.external_user_id,
            display_name: user.display_name,
            language: user.language,
        }
    }
}

/// A launch: open `launchUrl` for the player (its token works once, shortly).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LaunchedBody {
    /// The hosted app's URL carrying the launch token.
    pub launch_url: String,
    /// The single-use launch token alone.
    pub launch_token: String,
    /// When the token stops working.
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    /// The launch's locale, as stored.
    pub locale: Option<String>,
    /// The launch's metadata, as stored.
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    /// The player as stored.
    pub user: PlayerBody,
}

impl From<Launched> for LaunchedBody {
    fn from(launched: Launched) -> Self {
        Self {
            launch_url: launched.launch_url,
            launch_token: launched.launch_token,
            expires_at: launched.expires_at,
            locale: launched.locale.map(|locale| locale.into_string()),
            metadata: launched.metadata.as_ref().map(|metadata| metadata.to_value()),
            user: launched.user.into(),
        }
    }
}
