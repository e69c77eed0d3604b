//! HS256 JSON Web Tokens of one audience, each naming a subject of one operator: the
//! codec behind launch tokens, player session tokens and portfolio links. Audiences keep
//! one kind from ever being accepted as another; expiry is the caller's to check, against
//! the service clock (or the row the token names).

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use opinion_core::OperatorId;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::access::SessionTokens;
use crate::error::AppError;

const ISSUER: &str = "opinion";

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    iss: String,
    aud: String,
    sub: String,
    op: OperatorId,
    iat: i64,
    exp: i64,
}

/// What a verified token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenClaims {
    /// The operator the subject belongs to.
    pub operator: OperatorId,
    /// The subject (an id, as text).
    pub subject: String,
    /// When the token stops working, in unix seconds.
    pub expires: i64,
}

/// Signs and verifies the tokens of one audience.
#[derive(Clone)]
pub(crate) struct SignedTokens {
    audience: &'static str,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl SignedTokens {
    /// The codec of `audience` over the service's secret (at least 32 bytes).
    pub(crate) fn new(secret: &[u8], audience: &'static str) -> Result<Self, AppError> {
        if secret.len() < SessionTokens::MIN_SECRET_BYTES {
            return Err(AppError::Internal(format!(
                "the signing secret must have at least {} bytes",
                SessionTokens::MIN_SECRET_BYTES
            )));
        }
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["iss", "aud", "sub", "exp"]);
        validation.validate_exp = false;
        Ok(Self {
            audience,
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        })
    }

    /// A token naming `subject` of `operator`, issued at `issued`, until `expires`.
    pub(crate) fn issue(
        &self,
        operator: OperatorId,
        subject: String,
        issued: OffsetDateTime,
        expires: OffsetDateTime,
    ) -> Result<String, AppError> {
        let claims = Claims {
            iss: ISSUER.into(),
            aud: self.audience.into(),
            sub: subject,
            op: operator,
            iat: issued.unix_timestamp(),
            exp: expires.unix_timestamp(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AppError::Internal(format!("{} token signing: {e}", self.audience)))
    }

    /// What a token of this audience says, if its signature holds.
    pub(crate) fn verify(&self, token: &str) -> Option<TokenClaims> {
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()?
            .claims;
        Some(TokenClaims {
            operator: claims.op,
            subject: claims.sub,
            expires: claims.exp,
        })
    }
}
