//! Staff session tokens: HS256 JSON Web Tokens that name a server-side session.
//! The token proves which session; the session row decides whether it still works,
//! so a session can be ended at once on every instance. The same secret also derives each
//! session's form token, which the dashboard's forms carry against cross-site requests.

use hmac::{Hmac, Mac};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use opinion_core::{OperatorId, StaffSessionId};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::model::StaffSession;

const ISSUER: &str = "opinion";
const AUDIENCE: &str = "opinion-dashboard";
/// What the form-token key is derived for, so it is never the token-signing key itself.
const FORM_KEY_LABEL: &[u8] = b"opinion dashboard form tokens v1";

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
    form_key: Hmac<Sha256>,
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
        let label_key = hmac_of(secret, FORM_KEY_LABEL)?;
        Ok(Self {
            form_key: Hmac::new_from_slice(&label_key).map_err(|e| AppError::Internal(format!("form key: {e}")))?,
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

    /// The form token of a session: HMAC-SHA256 of the session id under a key derived from
    /// the session secret, so it needs no storage, differs per session and ends with it.
    pub fn form_token(&self, session_id: StaffSessionId) -> String {
        let mut mac = self.form_key.clone();
        mac.update(session_id.to_string().as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// Whether `presented` is the form token of `session_id`, compared in constant time.
    pub fn form_token_matches(&self, session_id: StaffSessionId, presented: &str) -> bool {
        let Ok(bytes) = hex::decode(presented) else {
            return false;
        };
        let mut mac = self.form_key.clone();
        mac.update(session_id.to_string().as_bytes());
        mac.verify_slice(&bytes).is_ok()
    }
}

fn hmac_of(key: &[u8], message: &[u8]) -> Result<Vec<u8>, AppError> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).map_err(|e| AppError::Internal(format!("form key: {e}")))?;
    mac.update(message);
    Ok(mac.finalize().into_bytes().to_vec())
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
    fn a_form_token_belongs_to_one_session_and_one_secret() {
        let tokens = SessionTokens::new(&[7; 32]).expect("codec");
        let session = StaffSessionId::from_u128(3);
        let token = tokens.form_token(session);
        assert!(tokens.form_token_matches(session, &token));
        assert!(!tokens.form_token_matches(StaffSessionId::from_u128(4), &token));
        let other = SessionTokens::new(&[8; 32]).expect("codec");
        assert!(!other.form_token_matches(session, &token));
        assert!(!tokens.form_token_matches(session, ""));
        assert!(!tokens.form_token_matches(session, "not hex"));
        assert!(!tokens.form_token_matches(session, &token[..token.len() - 2]));
    }

    #[test]
    fn short_secrets_are_refused() {
        assert!(SessionTokens::new(&[1; 31]).is_err());
    }
}
