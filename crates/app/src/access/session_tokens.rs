//! Staff session tokens: HS256 JSON Web Tokens that name a server-side session.
//! The token proves which session; the session row decides whether it still works,
//! so a session can be ended at once on every instance.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use opinion_core::{OperatorId, StaffSessionId};
use serde::{Deserialize, Serialize};

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::model::StaffSession;

const ISSUER: &str = "opinion";
const AUDIENCE: &str = "opinion-dashboard";

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    iss: String,
    aud: String,
    sub: String,
    op: OperatorId,
    sid: StaffSessionId,
    iat: i64,
    exp: i64,
}

/// Signs and verifies session tokens with the service's session secret.
#[derive(Clone)]
pub struct SessionTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

/// Where a verified token points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRef {
    /// The session's operator.
    pub operator_id: OperatorId,
    pub session_id: StaffSessionId,
}

impl SessionTokens {
    /// Fewest secret bytes accepted: HS256 wants at least its output size.
    pub const MIN_SECRET_BYTES: usize = 32;

    /// Builds the codec from the configured secret.
    pub fn new(secret: &[u8]) -> Result<Self, AppError> {
        if secret.len() < Self::MIN_SECRET_BYTES {
            return Err(AppError::Internal(format!(
                "the session secret must have at least {} bytes",
                Self::MIN_SECRET_BYTES
            )));
        }
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["iss", "aud", "sub"]);
        // Expiry is the session row's, checked against the service clock.
        validation.validate_exp = false;
        Ok(Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        })
    }

    /// The token of a session.
    pub fn issue(&self, session: &StaffSession) -> Result<String, AppError> {
        let claims = Claims {
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            sub: session.staff_id.to_string(),
            op: session.operator_id,
            sid: session.id,
            iat: session.created_at.unix_timestamp(),
            exp: session.expires_at.unix_timestamp(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AppError::Internal(format!("session token signing: {e}")))
    }

    /// Which session a token names, if its signature holds.
    pub fn verify(&self, token: &str) -> Result<SessionRef, AuthFailure> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| SessionRef {
                operator_id: data.claims.op,
                session_id: data.claims.sid,
            })
            .map_err(|_| AuthFailure::InvalidSession)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opinion_core::StaffId;
    use time::macros::datetime;

    fn session() -> StaffSession {
        StaffSession {
            id: StaffSessionId::from_u128(3),
            operator_id: OperatorId::from_u128(1),
            staff_id: StaffId::from_u128(2),
            created_at: datetime!(2026-11-22 10:00 UTC),
            expires_at: datetime!(2026-11-22 18:00 UTC),
            ended_at: None,
        }
    }

    #[test]
    fn a_token_names_its_session() {
        let tokens = SessionTokens::new(&[7; 32]).expect("codec");
        let token = tokens.issue(&session()).expect("token");
        assert_eq!(
            tokens.verify(&token),
            Ok(SessionRef {
                operator_id: OperatorId::from_u128(1),
                session_id: StaffSessionId::from_u128(3)
            })
        );
    }

    #[test]
    fn another_secret_or_a_tampered_token_fails() {
        let token = SessionTokens::new(&[7; 32])
            .expect("codec")
            .issue(&session())
            .expect("token");
        let other = SessionTokens::new(&[8; 32]).expect("codec");
        assert_eq!(other.verify(&token), Err(AuthFailure::InvalidSession));
        let mut tampered = token.into_bytes();
        let middle = tampered.len() / 2;
        tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
        let tokens = SessionTokens::new(&[7; 32]).expect("codec");
        assert_eq!(
            tokens.verify(&String::from_utf8(tampered).expect("ascii")),
            Err(AuthFailure::InvalidSession)
        );
    }

    #[test]
    fn short_secrets_are_refused() {
        assert!(SessionTokens::new(&[1; 31]).is_err());
    }
}
