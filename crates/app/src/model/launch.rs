//! Launches and player sessions: how a player gets from the operator's site into the
//! hosted app.

use opinion_core::{LaunchId, OperatorId, PlayerSessionId, UserId};
use opinion_launch::{LaunchMetadata, Locale};
use opinion_wallet::Product;
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
    /// The app the launch opens: Opinion unless the operator asked for flight.
    pub product: Product,
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
    /// The app the session plays, from its launch.
    pub product: Product,
    /// When it was opened.
    pub created_at: OffsetDateTime,
    /// When it ends unless the player logs out first.
    pub expires_at: OffsetDateTime,
    /// When it was ended (a logout, or the expiry once recorded), if it was.
    pub ended_at: Option<OffsetDateTime>,
}

impl PlayerSession {
    /// Whether the session still authenticates at `now`: not ended and not expired.
    pub fn is_live(&self, now: OffsetDateTime) -> bool {
        self.ended_at.is_none() && now < self.expires_at
    }
}

/// How a player session ended; each ending has its own event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// The player logged out (`mini_app.logout.requested`).
    LoggedOut,
    /// It reached its expiry (`mini_app.session.expired`).
    Expired,
}

/// Ending one player session with its event, in one transaction. A logout applies only
/// to a live session, an expiry only to an expired one, and either only to a session not
/// ended yet, so every session ends once, with one event.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionEnding {
    pub operator_id: OperatorId,
    pub session_id: PlayerSessionId,
    /// Logout or expiry.
    pub end: SessionEnd,
    /// When: the logout's time, or the session's expiry.
    pub at: OffsetDateTime,
    /// When the ending is recorded; a logout needs the session unexpired then.
    pub now: OffsetDateTime,
    /// The event of the ending.
    pub event: super::NewEvent,
}
