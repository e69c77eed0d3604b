//! Signed, expiring links to a player's read-only portfolio page, which opens without an
//! API key: an HS256 JSON Web Token (audience `opinion-portfolio-view`, so a staff
//! session token is never accepted as a link, nor a link as a session) naming the
//! operator and the player. The link grants reading that one portfolio until it expires.

use opinion_core::{OperatorId, UserId};
use time::{Duration, OffsetDateTime};

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::portfolio::Portfolio;
use crate::signed_tokens::SignedTokens;

/// Signs and verifies portfolio links.
#[derive(Clone)]
pub struct PortfolioLinks {
    tokens: SignedTokens,
}

/// A signed link's token and when it stops working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortfolioLink {
    /// The token to put in the link.
    pub token: String,
    /// When the link stops working (UTC).
    pub expires_at: OffsetDateTime,
}

impl PortfolioLinks {
    /// Link lifetime when the request names none: one hour.
    pub const DEFAULT_LIFETIME_SECONDS: i64 = 3_600;
    /// Shortest lifetime a request may ask for.
    pub const MIN_LIFETIME_SECONDS: i64 = 60;
    /// Longest lifetime a request may ask for: seven days.
    pub const MAX_LIFETIME_SECONDS: i64 = 7 * 86_400;

    /// Builds the signer from a secret of at least 32 bytes (the session secret will do:
    /// the audience keeps the two kinds of token apart).
    pub fn new(secret: &[u8]) -> Result<Self, AppError> {
        Ok(Self {
            tokens: SignedTokens::new(secret, "opinion-portfolio-view")?,
        })
    }

    fn issue(
        &self,
        operator: OperatorId,
        user: UserId,
        now: OffsetDateTime,
        expires_at: OffsetDateTime,
    ) -> Result<String, AppError> {
        self.tokens.issue(operator, user.to_string(), now, expires_at)
    }

    fn verify(&self, token: &str, now: OffsetDateTime) -> Result<(OperatorId, UserId), AuthFailure> {
        let claims = self.tokens.verify(token).ok_or(AuthFailure::InvalidViewLink)?;
        let user = claims.subject.parse().map_err(|_| AuthFailure::InvalidViewLink)?;
        if claims.expires <= now.unix_timestamp() {
            return Err(AuthFailure::ExpiredViewLink);
        }
        Ok((claims.operator, user))
    }
}

impl OperatorReads {
    /// A signed link to the portfolio of the operator's player `external_user_id`, valid
    /// for `lifetime_seconds` (default one hour, 60 s to 7 days); 404 if no such player.
    pub async fn portfolio_link(
        &self,
        operator: OperatorId,
        external_user_id: &str,
        lifetime_seconds: Option<i64>,
    ) -> Result<PortfolioLink, AppError> {
        let lifetime = lifetime_seconds.unwrap_or(PortfolioLinks::DEFAULT_LIFETIME_SECONDS);
        if !(PortfolioLinks::MIN_LIFETIME_SECONDS..=PortfolioLinks::MAX_LIFETIME_SECONDS).contains(&lifetime) {
            return Err(AppError::invalid(
                "expiresInSeconds",
                format!(
                    "must be between {} and {}",
                    PortfolioLinks::MIN_LIFETIME_SECONDS,
                    PortfolioLinks::MAX_LIFETIME_SECONDS
                ),
            ));
        }
        let user = self.user_by_external_id(operator, external_user_id).await?;
        let now = self.ports.clock.now();
        let expires_at = (now + Duration::seconds(lifetime)).replace_nanosecond(0).unwrap_or(now);
        let token = self.links.issue(operator, user.id, now, expires_at)?;
        tracing::info!(%operator, user_id = %user.id, %expires_at, "portfolio link issued");
        Ok(PortfolioLink { token, expires_at })
    }

    /// The portfolio a signed link opens, while the link is valid and its player exists.
    pub async fn portfolio_by_link(&self, token: &str) -> Result<Portfolio, AppError> {
        let (operator, user) = self.links.verify(token, self.ports.clock.now())?;
        let user = self
            .ports
            .reads
            .find_user(operator, user)
            .await?
            .ok_or(AppError::NotFound("user"))?;
        self.portfolio_of(user).await
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::UserId;
    use time::Duration;

    use super::*;
    use crate::test_support::reads::*;
    use crate::test_support::{NOW, OPERATOR};

    #[tokio::test]
    async fn a_link_opens_its_players_portfolio_until_it_expires() {
        let mut mocks = ReadMocks::default().with_operator();
        mocks
            .reads
            .expect_find_user_by_external_id()
            .returning(|_, _| Ok(Some(user(2, "p-1"))));
        mocks.reads.expect_find_user().returning(|operator, id| {
            assert_eq!(operator, OPERATOR, "the link's operator");
            assert_eq!(id, UserId::from_u128(2), "the link's player");
            Ok(Some(user(2, "p-1")))
        });
        mocks.reads.expect_list_positions().returning(|_, _| Ok(Vec::new()));
        let reads = mocks.build();
        let link = reads.portfolio_link(OPERATOR, "p-1", Some(600)).await.expect("link");
        assert_eq!(link.expires_at, NOW + Duration::seconds(600));
        let portfolio = reads.portfolio_by_link(&link.token).await.expect("opens");
        assert_eq!(portfolio.user.external_user_id, "p-1");

        let signer = PortfolioLinks::new(&SECRET).expect("signer");
        let stale = signer
            .issue(OPERATOR, UserId::from_u128(2), NOW - Duration::hours(2), NOW)
            .expect("token");
        let error = reads.portfolio_by_link(&stale).await.expect_err("expired");
        assert!(matches!(error, AppError::Unauthenticated(AuthFailure::ExpiredViewLink)));
    }

    #[tokio::test]
    async fn forged_or_foreign_tokens_open_nothing() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_find_user().never();
        let reads = mocks.build();
        let other = PortfolioLinks::new(&[1; 32]).expect("signer");
        let forged = other
            .issue(OPERATOR, UserId::from_u128(2), NOW, NOW + Duration::hours(1))
            .expect("token");
        for token in [forged.as_str(), "not-a-token", ""] {
            let error = reads.portfolio_by_link(token).await.expect_err("refused");
            assert!(
                matches!(error, AppError::Unauthenticated(AuthFailure::InvalidViewLink)),
                "{error:?}"
            );
        }
        let session = crate::access::SessionTokens::new(&SECRET)
            .expect("codec")
            .issue(&crate::model::StaffSession {
                id: opinion_core::StaffSessionId::from_u128(3),
                operator_id: OPERATOR,
                staff_id: opinion_core::StaffId::from_u128(4),
                created_at: NOW,
                expires_at: NOW + Duration::hours(1),
                ended_at: None,
            })
            .expect("session token");
        let error = reads.portfolio_by_link(&session).await.expect_err("refused");
        assert!(matches!(error, AppError::Unauthenticated(AuthFailure::InvalidViewLink)));
    }

    #[tokio::test]
    async fn lifetimes_are_bounded_and_the_player_must_exist() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_find_user_by_external_id().returning(|_, _| Ok(None));
        let reads = mocks.build();
        for lifetime in [59, 7 * 86_400 + 1] {
            let error = reads
                .portfolio_link(OPERATOR, "p-1", Some(lifetime))
                .await
                .expect_err("refused");
            assert!(matches!(
                error,
                AppError::Invalid {
                    field: "expiresInSeconds",
                    ..
                }
            ));
        }
        let error = reads
            .portfolio_link(OPERATOR, "ghost", None)
            .await
            .expect_err("missing");
        assert!(matches!(error, AppError::NotFound("user")));
    }
}
