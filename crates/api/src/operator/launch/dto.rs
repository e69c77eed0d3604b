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
    /// BCP 47 language tag.
    pub language: Option<String>,
    /// Where the hosted app sends the player back to.
    pub return_url: Option<String>,
    /// `flight`, or omitted for Opinion.
    pub product: Option<String>,
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
    /// The player as stored.
    pub user: PlayerBody,
}

impl From<Launched> for LaunchedBody {
    fn from(launched: Launched) -> Self {
        Self {
            launch_url: launched.launch_url,
            launch_token: launched.launch_token,
            expires_at: launched.expires_at,
            user: launched.user.into(),
        }
    }
}
