//! Launch tokens and player session tokens: HS256 JSON Web Tokens naming a server-side
//! row (the launch, the session), which decides whether the token still works. The two
//! kinds have their own audiences, so one can never be used as the other.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use opinion_core::{LaunchId, OperatorId, PlayerSessionId};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::AppError;

const ISSUER: &str = "opinion";
const LAUNCH_AUDIENCE: &str = "opinion-launch";
const PLAYER_AUDIENCE: &str = "opinion-player";

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    iss: String,
    aud: String,
    sub: String,
    op: OperatorId,
    iat: i64,
    exp: i64,
}

/// Signs and verifies launch and player session tokens.
#[derive(Clone)]
pub struct PlayerTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl PlayerTokens {
    /// Builds the codec from the service's session secret (at least 32 bytes).
    pub fn new(secret: &[u8]) -> Result<Self, AppError> {
        if secret.len() < 32 {
            return Err(AppError::Internal(
                "the session secret must have at least 32 bytes".into(),
            ));
        }
        Ok(Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
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
        self.issue(LAUNCH_AUDIENCE, operator, launch.to_string(), issued, expires)
    }

    /// The launch a token names, if its signature holds.
    pub fn verify_launch(&self, token: &str) -> Option<(OperatorId, LaunchId)> {
        let claims = self.verify(LAUNCH_AUDIENCE, token)?;
        Some((claims.op, claims.sub.parse().ok()?))
    }

    /// The token of a player session.
    pub fn session_token(
        &self,
        operator: OperatorId,
        session: PlayerSessionId,
        issued: OffsetDateTime,
        expires: OffsetDateTime,
    ) -> Result<String, AppError> {
        self.issue(PLAYER_AUDIENCE, operator, session.to_string(), issued, expires)
    }

    /// The player session a token names, if its signature holds.
    pub fn verify_session(&self, token: &str) -> Option<(OperatorId, PlayerSessionId)> {
        let claims = self.verify(PLAYER_AUDIENCE, token)?;
        Some((claims.op, claims.sub.parse().ok()?))
    }

    fn issue(
        &self,
        audience: &str,
        operator: OperatorId,
        subject: String,
        issued: OffsetDateTime,
        expires: OffsetDateTime,
    ) -> Result<String, AppError> {
        let claims = Claims {
            iss: ISSUER.into(),
            aud: audience.into(),
            sub: subject,
            op: operator,
            iat: issued.unix_timestamp(),
            exp: expires.unix_timestamp(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AppError::Internal(format!("player token signing: {e}")))
    }

    fn verify(&self, audience: &str, token: &str) -> Option<Claims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["iss", "aud", "sub"]);
        // Expiry is the row's, checked against the service clock.
        validation.validate_exp = false;
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .ok()
            .map(|data| data.claims)
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
