//! Launches and player sessions: how a player gets from the operator's site into the
//! hosted app.

use opinion_core::{LaunchId, OperatorId, PlayerSessionId, UserId};
use opinion_launch::{LaunchMetadata, Locale};
use time::OffsetDateTime;

/// A single-use launch: the token handed to the player names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// Its id, carried in the launch token.
    pub id: LaunchId,
    pub operator_id: OperatorId,
    /// The player launched.
    pub user_id: UserId,
    /// Where the hosted app sends the player back to, if the operator gave it.
    pub return_url: Option<String>,
    /// The locale the hosted app speaks in the session this launch opens.
    pub locale: Option<Locale>,
    /// The operator's opaque object, echoed in the player's webhook events.
    pub metadata: Option<LaunchMetadata>,
    /// When it was made.
    pub created_at: OffsetDateTime,
    /// When its token stops working.
    pub expires_at: OffsetDateTime,
}

/// A player's session in the hosted app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerSession {
    /// Its id, carried in the session token.
    pub id: PlayerSessionId,
    pub operator_id: OperatorId,
    /// The player.
    pub user_id: UserId,
    /// The launch it was opened with, which holds the operator's metadata.
    pub launch_id: LaunchId,
    /// The locale its launch asked for.
    pub locale: Option<Locale>,
    /// When it was opened.
    pub created_at: OffsetDateTime,
    /// When it ends.
    pub expires_at: OffsetDateTime,
}
