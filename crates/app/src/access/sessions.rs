//! Staff sessions: log in with e-mail and password, log out.

use std::net::IpAddr;

use opinion_access::StaffEmail;
use opinion_core::StaffSessionId;

use crate::access::Access;
use crate::access::AuthFailure;
use crate::access::login_throttling::throttle_keys;
use crate::access::{Actor, Principal};
use crate::error::AppError;
use crate::model::{StaffMember, StaffSession};

/// A started session: its token (shown to the client) and its record.
#[derive(Debug, Clone)]
pub struct StartedSession {
    /// The signed token to send as `Authorization: Bearer` (or carried by the cookie).
    pub token: String,
    /// The server-side session.
    pub session: StaffSession,
    /// The member who logged in.
    pub member: StaffMember,
}

impl Access {
    /// Logs a member in from the client at `address`. Wrong e-mail and wrong password are
    /// indistinguishable, in the answer and in the time it takes; the attempt is counted
    /// against the e-mail and the address first, and refused while either is locked.
    #[tracing::instrument(skip_all)]
    pub async fn start_session(
        &self,
        email: &str,
        password: &str,
        address: Option<IpAddr>,
    ) -> Result<StartedSession, AppError> {
        let keys = throttle_keys(email, address);
        self.admit_password_attempt(&keys).await?;
        let login = match StaffEmail::parse(email) {
            Ok(email) => self.ports.staff.find_staff_login(email.as_str()).await?,
            Err(_) => None,
        };
        let (member, stored_hash) = login.map_or((None, None), |(member, hash)| (Some(member), Some(hash)));
        let matches = self.passwords.verify(password, stored_hash).await?;
        let member = member.filter(|_| matches).ok_or(AuthFailure::BadLogin)?;
        self.password_attempt_succeeded(&keys).await?;
        if member.disabled {
            return Err(AuthFailure::StaffDisabled.into());
        }
        let now = self.ports.clock.now();
        let session = StaffSession {
            id: StaffSessionId::from_ulid(self.ports.random.ulid()),
            operator_id: member.operator_id,
            staff_id: member.id,
            created_at: now,
            expires_at: now + self.settings.session_ttl,
            ended_at: None,
        };
        self.ports.sessions.insert_session(&session).await?;
        let token = self.settings.session_tokens.issue(&session)?;
        tracing::info!(operator_id = %member.operator_id, staff_id = %member.id, session_id = %session.id, "staff session started");
        Ok(StartedSession { token, session, member })
    }

    /// Ends the caller's own session.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn end_session(&self, caller: &Principal) -> Result<(), AppError> {
        let Actor::Staff { session_id, .. } = caller.actor else {
            return Err(AppError::invalid("credential", "only a staff session can be ended"));
        };
        let now = self.ports.clock.now();
        self.ports
            .sessions
            .end_session(caller.operator_id, session_id, now)
            .await?;
        tracing::info!(session_id = %session_id, "staff session ended");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use opinion_access::{Grant, Password, ThrottleKey};

    use crate::access::password_hasher::MockPasswords;
    use crate::access::{AuthFailure, PasswordHasher};
    use crate::error::AppError;
    use crate::test_support::*;

    async fn stored(password: &str) -> String {
        PasswordHasher::default()
            .hash(&Password::new(password.into()).expect("valid"), [1; 32])
            .await
            .expect("hash")
    }

    #[tokio::test]
    async fn the_right_password_starts_a_session_whose_token_authenticates() {
        let hash = stored("correct horse battery").await;
        let mut mocks = Mocks::default();
        mocks
            .staff
            .expect_find_staff_login()
            .withf(|email| email == "m1@example.com")
            .returning(move |_| Ok(Some((member(1, Grant::All), hash.clone()))));
        mocks
            .sessions
            .expect_insert_session()
            .times(1)
            .withf(|s| s.expires_at == NOW + time::Duration::hours(8))
            .returning(|_| Ok(()));
        let started = mocks
            .admitting_attempts()
            .build()
            .start_session(" M1@example.com", "correct horse battery", None)
            .await
            .expect("started");
        let reference = settings().session_tokens.verify(&started.token).expect("valid token");
        assert_eq!(reference.session_id, started.session.id);
    }

    #[tokio::test]
    async fn wrong_password_and_unknown_email_look_the_same() {
        let hash = stored("correct horse battery").await;
        let mut mocks = Mocks::default();
        mocks
            .staff
            .expect_find_staff_login()
            .returning(move |email| Ok((email == "m1@example.com").then(|| (member(1, Grant::All), hash.clone()))));
        mocks.sessions.expect_insert_session().never();
        let access = mocks.admitting_attempts().build();
        for (email, password) in [
            ("m1@example.com", "wrong horse battery"),
            ("nobody@example.com", "correct horse battery"),
            ("not an email", "x"),
        ] {
            let error = access.start_session(email, password, None).await.expect_err("refused");
            assert!(
                matches!(error, AppError::Unauthenticated(AuthFailure::BadLogin)),
                "{email}: {error:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_disabled_member_cannot_log_in() {
        let hash = stored("correct horse battery").await;
        let mut disabled = member(1, Grant::All);
        disabled.disabled = true;
        let mut mocks = Mocks::default();
        mocks
            .staff
            .expect_find_staff_login()
            .returning(move |_| Ok(Some((disabled.clone(), hash.clone()))));
        mocks.sessions.expect_insert_session().never();
        let error = mocks
            .admitting_attempts()
            .build()
            .start_session("m1@example.com", "correct horse battery", None)
            .await
            .expect_err("refused");
        assert!(matches!(error, AppError::Unauthenticated(AuthFailure::StaffDisabled)));
    }

    fn client() -> Option<std::net::IpAddr> {
        Some("203.0.113.9".parse().expect("address"))
    }

    #[tokio::test]
    async fn a_throttled_attempt_is_refused_before_any_lookup_or_verification() {
        for email in ["m1@example.com", "nobody@example.com"] {
            let mut mocks = Mocks::default();
            mocks
                .login_attempts
                .expect_admit_login_attempt()
                .times(1)
                .withf(move |keys, _, at| {
                    *keys
                        == [
                            ThrottleKey::email(email),
                            ThrottleKey::address(client().expect("address")),
                        ]
                        && *at == NOW
                })
                .returning(|_, _, _| Ok(Some(time::Duration::milliseconds(89_500))));
            mocks
                .login_attempts
                .expect_prune_login_attempts()
                .returning(|_, _| Ok(0));
            mocks.login_attempts.expect_record_login_success().never();
            mocks.staff.expect_find_staff_login().never();
            let mut passwords = MockPasswords::new();
            passwords.expect_verify().never();
            let error = mocks
                .build()
                .with_passwords(Arc::new(passwords))
                .start_session(email, "correct horse battery", client())
                .await
                .expect_err("throttled");
            assert!(
                matches!(error, AppError::RateLimited { retry_after_secs: 90 }),
                "{email}: {error:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_known_and_an_unknown_email_run_the_same_single_verification() {
        for (email, stored) in [
            ("m1@example.com", Some("$argon2id$stored".to_owned())),
            ("nobody@example.com", None),
        ] {
            let mut mocks = Mocks::default().admitting_attempts();
            let found = stored.clone().map(|hash| (member(1, Grant::All), hash));
            mocks
                .staff
                .expect_find_staff_login()
                .times(1)
                .returning(move |_| Ok(found.clone()));
            mocks.sessions.expect_insert_session().never();
            let mut passwords = MockPasswords::new();
            passwords
                .expect_verify()
                .times(1)
                .withf(move |password, given| password == "wrong horse battery" && *given == stored)
                .returning(|_, _| Ok(false));
            let error = mocks
                .build()
                .with_passwords(Arc::new(passwords))
                .start_session(email, "wrong horse battery", client())
                .await
                .expect_err("refused");
            assert!(
                matches!(error, AppError::Unauthenticated(AuthFailure::BadLogin)),
                "{email}: {error:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_right_password_is_recorded_as_a_success_for_the_email_and_the_address() {
        let hash = stored("correct horse battery").await;
        let mut mocks = Mocks::default();
        mocks
            .login_attempts
            .expect_admit_login_attempt()
            .returning(|_, _, _| Ok(None));
        mocks
            .login_attempts
            .expect_prune_login_attempts()
            .returning(|_, _| Ok(0));
        mocks
            .login_attempts
            .expect_record_login_success()
            .times(1)
            .withf(|keys, _, _| {
                *keys
                    == [
                        ThrottleKey::email("m1@example.com"),
                        ThrottleKey::address(client().expect("address")),
                    ]
            })
            .returning(|_, _, _| Ok(()));
        mocks
            .staff
            .expect_find_staff_login()
            .returning(move |_| Ok(Some((member(1, Grant::All), hash.clone()))));
        mocks.sessions.expect_insert_session().returning(|_| Ok(()));
        mocks
            .build()
            .start_session("M1@example.com", "correct horse battery", client())
            .await
            .expect("started");
    }
}
