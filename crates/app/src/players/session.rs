//! Player sessions: a launch token is exchanged once for a session (the player's login,
//! `mini_app.login.succeeded`), and a session token authenticates the hosted app's calls
//! while its session is live. On an operator's launch host, only that operator's tokens
//! and sessions work.

use opinion_core::{OperatorId, PlayerSessionId};
use opinion_wallet::Product;

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::model::{PlayerSession, User};
use crate::players::Players;

/// The authenticated player of a hosted-app request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerPrincipal {
    /// The player's operator: every read and write is confined to it.
    pub operator_id: OperatorId,
    /// The player.
    pub user: User,
    pub session_id: PlayerSessionId,
}

/// A session opened from a launch token.
#[derive(Debug, Clone)]
pub struct OpenedSession {
    /// The session token, for `Authorization: Bearer`.
    pub token: String,
    pub session: PlayerSession,
    /// The player.
    pub user: User,
}

impl OpenedSession {
    /// The locale the hosted app should speak: the launch's, else the player's language.
    pub fn locale(&self) -> Option<&str> {
        self.session
            .locale
            .as_ref()
            .map(|locale| locale.as_str())
            .or(self.user.language.as_deref())
    }
}

impl Players {
    /// Exchanges a launch token, once and before it expires, for a player session; the
    /// login's event is written with the session. A token presented on another
    /// operator's launch host (`host`, the request's `Host`) is refused and stays usable.
    #[tracing::instrument(skip_all)]
    pub async fn open_player_session(&self, launch_token: &str, host: Option<&str>) -> Result<OpenedSession, AppError> {
        let (operator_id, launch_id) = self
            .settings
            .tokens
            .verify_launch(launch_token)
            .ok_or(AppError::Unauthenticated(AuthFailure::InvalidLaunch))?;
        self.check_arrival(host, operator_id).await?;
        let used_or_expired = || AppError::Unauthenticated(AuthFailure::LaunchUsedOrExpired);
        let (launch, player) = self
            .ports
            .store
            .find_launch(operator_id, launch_id)
            .await?
            .ok_or_else(used_or_expired)?;
        let now = self.ports.clock.now();
        let id = PlayerSessionId::from_ulid(self.ports.random.ulid());
        let expires_at = now + self.settings.player_session_ttl;
        let login = self.login_succeeded(&launch, &player, id, now, expires_at);
        let (session, user) = self
            .ports
            .store
            .open_player_session(operator_id, launch_id, id, now, expires_at, &login)
            .await?
            .ok_or_else(used_or_expired)?;
        let token = self
            .settings
            .tokens
            .session_token(operator_id, session.id, now, session.expires_at)?;
        tracing::info!(operator_id = %operator_id, user_id = %user.id, "player session opened");
        Ok(OpenedSession { token, session, user })
    }

    /// The player a session token authenticates, if the session is live and `host` (the
    /// request's `Host`) is not another operator's launch host.
    pub async fn authenticate_player(&self, token: &str, host: Option<&str>) -> Result<PlayerPrincipal, AppError> {
        self.confirm_session(&self.session_credential(token, host, None)?).await
    }

    /// `authenticate_player` for a route of `product`: a live session opened for another
    /// product is refused (`wrong_product`).
    pub async fn authenticate_player_for(
        &self,
        token: &str,
        host: Option<&str>,
        product: Product,
    ) -> Result<PlayerPrincipal, AppError> {
        self.confirm_session(&self.session_credential(token, host, Some(product))?)
            .await
    }
}
