//! Persistence of players, their launches and their sessions, and of the operators'
//! launch settings.

use async_trait::async_trait;
use opinion_core::{LaunchId, OperatorId, PlayerSessionId};
use opinion_launch::{Branding, LaunchHost};
use opinion_wallet::Product;
use time::OffsetDateTime;

use crate::model::{
    Launch, LaunchSettings, LaunchSite, NewEvent, OperatorBranding, PlayerSession, SessionEnding, User,
};
use crate::ports::StoreError;

/// Whether an operator's players may be launched into a product. Opinion is always on;
/// flight only once platform staff enabled it.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ProductGate: Send + Sync {
    /// Whether the operator's players may be launched into `product` now.
    async fn product_enabled(&self, operator: OperatorId, product: Product) -> Result<bool, StoreError>;
}

/// Players, launches and player sessions.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PlayerStore: Send + Sync {
    /// Creates the player or updates its details and stores the launch, in one
    /// transaction; returns the player as stored.
    async fn record_launch(&self, user: &User, launch: &Launch) -> Result<User, StoreError>;
    /// A launch of the operator and its player, used or not.
    async fn find_launch(&self, operator: OperatorId, launch: LaunchId) -> Result<Option<(Launch, User)>, StoreError>;
    /// Marks the launch used and opens session `id` for its player until `expires_at`, if
    /// the launch is unused and unexpired at `at`, with the login's `event`, in one
    /// transaction; `None` (and nothing written) otherwise. The session takes the
    /// launch's locale.
    async fn open_player_session(
        &self,
        operator: OperatorId,
        launch: LaunchId,
        id: PlayerSessionId,
        at: OffsetDateTime,
        expires_at: OffsetDateTime,
        event: &NewEvent,
    ) -> Result<Option<(PlayerSession, User)>, StoreError>;
    /// A live or ended player session and its player.
    async fn find_player_session(
        &self,
        operator: OperatorId,
        id: PlayerSessionId,
    ) -> Result<Option<(PlayerSession, User)>, StoreError>;
    /// Ends a session with its event if the ending still applies (see `SessionEnding`);
    /// `false`, with nothing written, when it does not (already ended, or a logout of an
    /// expired session).
    async fn end_player_session(&self, ending: &SessionEnding) -> Result<bool, StoreError>;
    /// Up to `limit` sessions of every operator past their expiry at `now` and not ended
    /// yet, earliest expiry first, with their players.
    async fn expired_player_sessions(
        &self,
        now: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<(PlayerSession, User)>, StoreError>;
}

/// What replacing an operator's launch settings did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchSettingsWrite {
    /// The settings are stored.
    Saved,
    /// Nothing changed: this host is another operator's launch host.
    HostTaken(LaunchHost),
}

/// Operators' launch settings, and which operator a launch host belongs to.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait LaunchSettingsStore: Send + Sync {
    /// The operator's settings, if it ever set them.
    async fn find_launch_settings(&self, operator: OperatorId) -> Result<Option<LaunchSettings>, StoreError>;
    /// Replaces the operator's hosts and frame origins in one transaction, as changed
    /// `at`; a host may belong to one operator only (a host claimed by another operator
    /// at the same moment is `Duplicate(UniqueKey::LaunchHost)`).
    async fn replace_launch_settings(
        &self,
        settings: &LaunchSettings,
        at: OffsetDateTime,
    ) -> Result<LaunchSettingsWrite, StoreError>;
    /// The operator a launch host belongs to and its frame origins (this is how a
    /// request's host names its operator, across all operators).
    async fn find_launch_site(&self, host: &LaunchHost) -> Result<Option<LaunchSite>, StoreError>;
    /// The operator's brand, if it ever set one.
    async fn find_branding(&self, operator: OperatorId) -> Result<Option<OperatorBranding>, StoreError>;
    /// Replaces the operator's brand whole, in one statement, as changed `at`.
    async fn replace_branding(
        &self,
        operator: OperatorId,
        branding: &Branding,
        at: OffsetDateTime,
    ) -> Result<(), StoreError>;
}
