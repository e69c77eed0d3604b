//! How player sessions end: the player logs out (`mini_app.logout.requested`), or the
//! session reaches its expiry and a sweep records it (`mini_app.session.expired`). Both
//! mark the session ended in the transaction that writes the event, and only a session
//! not ended yet can be ended, so each session ends once, with exactly one event, however
//! many instances sweep at once.

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::model::{SessionEnd, SessionEnding};
use crate::players::{PlayerPrincipal, Players};

impl Players {
    /// Ends the authenticated player's session now. A session that ended meanwhile
    /// (expired, or logged out by a concurrent request) answers as an ended session.
    #[tracing::instrument(skip_all, fields(operator_id = %player.operator_id, player_session_id = %player.session_id))]
    pub async fn log_out(&self, player: &PlayerPrincipal) -> Result<(), AppError> {
        let now = self.ports.clock.now();
        let ending = SessionEnding {
            operator_id: player.operator_id,
            session_id: player.session_id,
            end: SessionEnd::LoggedOut,
            at: now,
            now,
            event: self.session_ended(player.session_id, &player.user, SessionEnd::LoggedOut, now),
        };
        if !self.ports.store.end_player_session(&ending).await? {
            return Err(AppError::Unauthenticated(AuthFailure::SessionEnded));
        }
        tracing::info!(user_id = %player.user.id, "player logged out");
        Ok(())
    }

    /// Records the end of up to `limit` sessions that expired without a logout, each with
    /// its `mini_app.session.expired` (dated at the expiry); returns how many it ended. A
    /// session another instance ended first is skipped.
    pub async fn end_expired_sessions(&self, limit: u32) -> Result<usize, AppError> {
        let now = self.ports.clock.now();
        let expired = self.ports.store.expired_player_sessions(now, limit).await?;
        let mut ended = 0;
        for (session, user) in expired {
            let ending = SessionEnding {
                operator_id: session.operator_id,
                session_id: session.id,
                end: SessionEnd::Expired,
                at: session.expires_at,
                now,
                event: self.session_ended(session.id, &user, SessionEnd::Expired, session.expires_at),
            };
            if self.ports.store.end_player_session(&ending).await? {
                ended += 1;
            }
        }
        if ended > 0 {
            tracing::info!(ended, "expired player sessions ended");
        }
        Ok(ended)
    }
}
