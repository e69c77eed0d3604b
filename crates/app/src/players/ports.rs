//! Persistence of players, their launches and their sessions.

use async_trait::async_trait;
use opinion_core::{LaunchId, OperatorId, PlayerSessionId};
use time::OffsetDateTime;

use crate::model::{Launch, NewEvent, PlayerSession, User};
use crate::ports::StoreError;

/// Players, launches and player sessions.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PlayerStore: Send + Sync {
    /// Creates the player or updates its details, stores the launch and the
    /// `user.launched` event, in one transaction; returns the player as stored.
    async fn record_launch(&self, user: &User, launch: &Launch, event: &NewEvent) -> Result<User, StoreError>;
    /// Marks the launch used and opens session `id` for its player until `expires_at`, if
    /// the launch is unused and unexpired at `at`; `None` otherwise.
    async fn open_player_session(
        &self,
        operator: OperatorId,
        launch: LaunchId,
        id: PlayerSessionId,
        at: OffsetDateTime,
        expires_at: OffsetDateTime,
    ) -> Result<Option<(PlayerSession, User)>, StoreError>;
    /// A live or ended player session and its player.
    async fn find_player_session(
        &self,
        operator: OperatorId,
        id: PlayerSessionId,
    ) -> Result<Option<(PlayerSession, User)>, StoreError>;
}
