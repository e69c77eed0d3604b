//! Launch tokens and player session tokens: HS256 JSON Web Tokens naming a server-side
//! row (the launch, the session), which decides whether the token still works. The two
//! kinds have their own audiences, so one can never be used as the other.

use opinion_core::{LaunchId, OperatorId, PlayerSessionId};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::signed_tokens::SignedTokens;

/// Signs and verifies launch and player session tokens.
#[derive(Clone)]
pub struct PlayerTokens {
    launch: SignedTokens,
    session: SignedTokens,
}

impl PlayerTokens {
    /// Builds the codec from the service's session secret (at least 32 bytes).
    pub fn new(secret: &[u8]) -> Result<Self, AppError> {
        Ok(Self {
            launch: SignedTokens::new(secret, "opinion-launch")?,
            session: SignedTokens::new(secret, "opinion-player")?,
        })
    }

    /// The token of a launch.
    pub fn launch_token(
        &self,
        operator: OperatorId,
        launch: LaunchId,
        issued: OffsetDateTime,
        expires: OffsetDateTime,
    ) -> Result<String, AppError> {
        self.launch.issue(operator, launch.to_string(), issued, expires)
    }

    /// The launch a token names, if its signature holds.
    pub fn verify_launch(&self, token: &str) -> Option<(OperatorId, LaunchId)> {
        let claims = self.launch.verify(token)?;
        Some((claims.operator, claims.subject.parse().ok()?))
    }

    /// The token of a player session.
    pub fn session_token(
        &self,
        operator: OperatorId,
        session: PlayerSessionId,
        issued: OffsetDateTime,
        expires: OffsetDateTime,
    ) -> Result<String, AppError> {
        self.session.issue(operator, session.to_string(), issued, expires)
    }

    /// The player session a token names, if its signature holds.
    pub fn verify_session(&self, token: &str) -> Option<(OperatorId, PlayerSessionId)> {
        let claims = self.session.verify(token)?;
        Some((claims.operator, claims.subject.parse().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn a_launch_token_is_not_a_session_token_and_the_other_way_round() {
        let tokens = PlayerTokens::new(&[7; 32]).unwrap();
        let (at, until) = (datetime!(2026-11-22 10:00 UTC), datetime!(2026-11-22 10:05 UTC));
        let operator = OperatorId::from_u128(1);
        let launch = tokens
            .launch_token(operator, LaunchId::from_u128(2), at, until)
            .unwrap();
        let session = tokens
            .session_token(operator, PlayerSessionId::from_u128(3), at, until)
            .unwrap();
        assert_eq!(tokens.verify_launch(&launch), Some((operator, LaunchId::from_u128(2))));
        assert_eq!(
            tokens.verify_session(&session),
            Some((operator, PlayerSessionId::from_u128(3)))
        );
        assert_eq!(tokens.verify_session(&launch), None);
        assert_eq!(tokens.verify_launch(&session), None);
        let other = PlayerTokens::new(&[8; 32]).unwrap();
        assert_eq!(other.verify_launch(&launch), None);
        assert_eq!(tokens.verify_launch("garbage"), None);
    }
}
