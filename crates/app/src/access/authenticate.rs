//! Authentication: from a presented credential to a principal, or a 401 reason.
//! Nothing is cached, so a revoked key or ended session is refused at once on every
//! instance of the service.

use opinion_access::ApiKeySecret;
use time::Duration;

use crate::access::Access;
use crate::access::AuthFailure;
use crate::access::{Actor, Principal};
use crate::error::AppError;

/// How stale `last_used_at` may get before a use is written again.
const LAST_USE_RESOLUTION: Duration = Duration::minutes(1);

impl Access {
    /// Authenticates a bearer credential: an API key (`opk_…`) or a staff session token.
    #[tracing::instrument(skip_all, fields(credential = tracing::field::Empty))]
    pub async fn authenticate(&self, credential: &str) -> Result<Principal, AppError> {
        if ApiKeySecret::looks_like_api_key(credential) {
            tracing::Span::current().record("credential", "api_key");
            self.authenticate_api_key(credential).await
        } else {
            tracing::Span::current().record("credential", "staff_session");
            self.authenticate_session(credential).await
        }
    }

    async fn authenticate_api_key(&self, credential: &str) -> Result<Principal, AppError> {
        let secret = ApiKeySecret::parse(credential).map_err(AuthFailure::from)?;
        if secret.environment() != self.settings.environment {
            return Err(AuthFailure::WrongEnvironment.into());
        }
        let key = self
            .ports
            .api_keys
            .find_api_key_by_hash(&secret.hash())
            .await?
            .ok_or(AuthFailure::UnknownKey)?;
        let now = self.ports.clock.now();
        if key.revoked_at.is_some() {
            return Err(AuthFailure::RevokedKey.into());
        }
        if !key.is_usable_at(now) {
            return Err(AuthFailure::ExpiredKey.into());
        }
        let unless_used_since = now - LAST_USE_RESOLUTION;
        if key.last_used_at.is_none_or(|last| last < unless_used_since) {
            self.ports
                .api_keys
                .record_api_key_use(key.operator_id, key.id, now, unless_used_since)
                .await?;
        }
        Ok(Principal {
            operator_id: key.operator_id,
            grant: key.grant,
            actor: Actor::ApiKey(key.id),
        })
    }

    async fn authenticate_session(&self, token: &str) -> Result<Principal, AppError> {
        let reference = self.settings.session_tokens.verify(token)?;
        let (session, member) = self
            .ports
            .sessions
            .find_session(reference.operator_id, reference.session_id)
            .await?
            .ok_or(AuthFailure::InvalidSession)?;
        if !session.is_live_at(self.ports.clock.now()) {
            return Err(AuthFailure::SessionEnded.into());
        }
        if member.disabled {
            return Err(AuthFailure::StaffDisabled.into());
        }
        Ok(Principal {
            operator_id: member.operator_id,
            grant: member.grant,
            actor: Actor::Staff {
                staff_id: member.id,
                session_id: session.id,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use opinion_access::{ApiKeyEnvironment, ApiKeySecret, Grant, SecretFormatError};
    use time::Duration;

    use crate::access::{Actor, AuthFailure};
    use crate::error::AppError;
    use crate::model::StaffSession;
    use crate::test_support::*;

    fn secret() -> ApiKeySecret {
        ApiKeySecret::generate(ApiKeyEnvironment::Development, [3; 32])
    }

    fn failure(result: Result<crate::access::Principal, AppError>) -> AuthFailure {
        match result {
            Err(AppError::Unauthenticated(failure)) => failure,
            other => panic!("expected a 401 failure, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_usable_key_authenticates_as_its_operator_and_records_use() {
        let mut mocks = Mocks::default();
        let hash = secret().hash();
        mocks
            .api_keys
            .expect_find_api_key_by_hash()
            .withf(move |h| *h == hash)
            .returning(|_| Ok(Some(key_record(grant(&["users:read"])))));
        mocks
            .api_keys
            .expect_record_api_key_use()
            .times(1)
            .returning(|_, _, at, unless_used_since| {
                assert_eq!(at, NOW, "the use is recorded at the request's time");
                assert_eq!(unless_used_since, NOW - Duration::minutes(1), "at most once a minute");
                Ok(())
            });
        let principal = mocks
            .build()
            .authenticate(secret().expose())
            .await
            .expect("authenticated");
        assert_eq!(principal.operator_id, OPERATOR);
        assert_eq!(principal.grant, grant(&["users:read"]));
        assert!(matches!(principal.actor, Actor::ApiKey(_)));
    }

    #[tokio::test]
    async fn a_recent_use_is_not_written_again() {
        let mut mocks = Mocks::default();
        let mut record = key_record(Grant::All);
        record.last_used_at = Some(NOW - Duration::seconds(30));
        mocks
            .api_keys
            .expect_find_api_key_by_hash()
            .returning(move |_| Ok(Some(record.clone())));
        mocks.api_keys.expect_record_api_key_use().never();
        assert!(mocks.build().authenticate(secret().expose()).await.is_ok());
    }

    #[tokio::test]
    async fn revoked_and_expired_keys_are_refused() {
        for (revoked, expires, expected) in [
            (Some(NOW - Duration::seconds(1)), None, AuthFailure::RevokedKey),
            (None, Some(NOW), AuthFailure::ExpiredKey),
            (None, Some(NOW - Duration::hours(1)), AuthFailure::ExpiredKey),
        ] {
            let mut mocks = Mocks::default();
            let mut record = key_record(Grant::All);
            record.revoked_at = revoked;
            record.expires_at = expires;
            mocks
                .api_keys
                .expect_find_api_key_by_hash()
                .returning(move |_| Ok(Some(record.clone())));
            mocks.api_keys.expect_record_api_key_use().never();
            assert_eq!(failure(mocks.build().authenticate(secret().expose()).await), expected);
        }
    }

    #[tokio::test]
    async fn bad_keys_are_refused_without_a_store_read() {
        let staging = ApiKeySecret::generate(ApiKeyEnvironment::Staging, [3; 32]);
        let mut typo = secret().expose().to_owned();
        typo.replace_range(10..11, if &typo[10..11] == "a" { "b" } else { "a" });
        for (credential, expected) in [
            ("opk_dev_short", AuthFailure::ApiKeyFormat(SecretFormatError::Malformed)),
            (typo.as_str(), AuthFailure::ApiKeyFormat(SecretFormatError::BadChecksum)),
            (staging.expose(), AuthFailure::WrongEnvironment),
        ] {
            let mut mocks = Mocks::default();
            mocks.api_keys.expect_find_api_key_by_hash().never();
            assert_eq!(
                failure(mocks.build().authenticate(credential).await),
                expected,
                "{credential}"
            );
        }
    }

    #[tokio::test]
    async fn an_unknown_key_is_refused() {
        let mut mocks = Mocks::default();
        mocks.api_keys.expect_find_api_key_by_hash().returning(|_| Ok(None));
        assert_eq!(
            failure(mocks.build().authenticate(secret().expose()).await),
            AuthFailure::UnknownKey
        );
    }

    fn session(ended: bool) -> StaffSession {
        StaffSession {
            id: opinion_core::StaffSessionId::from_u128(2),
            operator_id: OPERATOR,
            staff_id: opinion_core::StaffId::from_u128(1),
            created_at: NOW - Duration::hours(1),
            expires_at: NOW + Duration::hours(1),
            ended_at: ended.then_some(NOW - Duration::minutes(1)),
        }
    }

    #[tokio::test]
    async fn a_live_session_authenticates_with_the_members_current_grant() {
        let mut mocks = Mocks::default();
        mocks
            .sessions
            .expect_find_session()
            .returning(|_, _| Ok(Some((session(false), member(1, grant(&["staffs:read"]))))));
        let token = settings().session_tokens.issue(&session(false)).expect("token");
        let principal = mocks.build().authenticate(&token).await.expect("authenticated");
        assert_eq!(principal.grant, grant(&["staffs:read"]));
        assert_eq!(principal.kind(), opinion_access::CredentialKind::StaffSession);
    }

    #[tokio::test]
    async fn ended_sessions_disabled_members_and_forged_tokens_are_refused() {
        let token = settings().session_tokens.issue(&session(false)).expect("token");
        let mut disabled = member(1, Grant::All);
        disabled.disabled = true;
        for (found, expected) in [
            (Some((session(true), member(1, Grant::All))), AuthFailure::SessionEnded),
            (Some((session(false), disabled)), AuthFailure::StaffDisabled),
            (None, AuthFailure::InvalidSession),
        ] {
            let mut mocks = Mocks::default();
            mocks
                .sessions
                .expect_find_session()
                .returning(move |_, _| Ok(found.clone()));
            assert_eq!(failure(mocks.build().authenticate(&token).await), expected);
        }
        let forged = crate::access::SessionTokens::new(&[9; 32])
            .expect("codec")
            .issue(&session(false))
            .expect("token");
        let mut mocks = Mocks::default();
        mocks.sessions.expect_find_session().never();
        assert_eq!(
            failure(mocks.build().authenticate(&forged).await),
            AuthFailure::InvalidSession
        );
    }
}
