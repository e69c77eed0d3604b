//! A member changing their own password.

use std::sync::Arc;

use opinion_access::{Grant, ThrottleKey};

use crate::access::OwnPasswordChange;
use crate::access::password_hasher::MockPasswords;
use crate::error::{AppError, ProblemCode};
use crate::test_support::*;

fn change(current: &str, new: &str) -> OwnPasswordChange {
    OwnPasswordChange {
        current_password: current.into(),
        new_password: new.into(),
    }
}

fn knowing(current: &'static str) -> MockPasswords {
    let mut passwords = MockPasswords::new();
    passwords
        .expect_verify()
        .returning(move |given, stored| Ok(stored.is_some() && given == current));
    passwords.expect_hash().returning(|_, _| Ok("$argon2id$new".into()));
    passwords
}

fn with_member(mut mocks: Mocks) -> Mocks {
    mocks
        .staff
        .expect_find_staff_password()
        .returning(|_, id| Ok(Some((member(id.as_u128(), Grant::All), "$argon2id$old".into()))));
    mocks
}

#[tokio::test]
async fn the_right_current_password_sets_the_new_one_and_keeps_only_this_session() {
    let mut mocks = with_member(Mocks::default().admitting_attempts());
    mocks
        .staff
        .expect_change_own_password()
        .times(1)
        .returning(|operator, id, hash, keep, at| {
            let caller = staff_caller(Grant::All);
            let crate::access::Actor::Staff { staff_id, session_id } = caller.actor else {
                unreachable!("a staff caller")
            };
            assert_eq!((operator, id, keep, at), (OPERATOR, staff_id, session_id, NOW));
            assert_eq!(hash, "$argon2id$new");
            Ok(Some(member(id.as_u128(), Grant::All)))
        });
    mocks
        .build()
        .with_passwords(Arc::new(knowing("correct horse battery")))
        .change_own_password(
            &staff_caller(Grant::All),
            change("correct horse battery", "a brand new long password"),
            None,
        )
        .await
        .expect("changed");
}

#[tokio::test]
async fn a_wrong_current_password_is_refused_and_counted() {
    let mut mocks = with_member(Mocks::default());
    mocks
        .login_attempts
        .expect_admit_login_attempt()
        .times(1)
        .withf(|keys, _, _| *keys == [ThrottleKey::email("m1@example.com")])
        .returning(|_, _, _| Ok(None));
    mocks
        .login_attempts
        .expect_prune_login_attempts()
        .returning(|_, _| Ok(0));
    mocks.login_attempts.expect_record_login_success().never();
    mocks.staff.expect_change_own_password().never();
    let error = mocks
        .build()
        .with_passwords(Arc::new(knowing("correct horse battery")))
        .change_own_password(
            &staff_caller(Grant::All),
            change("wrong horse battery", "a brand new long password"),
            None,
        )
        .await
        .expect_err("refused");
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::CurrentPasswordWrong,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_throttled_member_is_refused_without_a_verification() {
    let mut mocks = with_member(Mocks::default());
    mocks
        .login_attempts
        .expect_admit_login_attempt()
        .returning(|_, _, _| Ok(Some(time::Duration::seconds(30))));
    mocks
        .login_attempts
        .expect_prune_login_attempts()
        .returning(|_, _| Ok(0));
    let mut passwords = MockPasswords::new();
    passwords.expect_verify().never();
    let error = mocks
        .build()
        .with_passwords(Arc::new(passwords))
        .change_own_password(
            &staff_caller(Grant::All),
            change("correct horse battery", "a brand new long password"),
            None,
        )
        .await
        .expect_err("throttled");
    assert!(matches!(error, AppError::RateLimited { retry_after_secs: 30 }));
}

#[tokio::test]
async fn a_new_password_outside_the_policy_or_equal_to_the_current_is_refused_uncounted() {
    for (current, new) in [
        ("correct horse battery", "short"),
        ("correct horse battery", "correct horse battery"),
    ] {
        let mut mocks = Mocks::default();
        mocks.login_attempts.expect_admit_login_attempt().never();
        mocks.staff.expect_change_own_password().never();
        let error = mocks
            .build()
            .change_own_password(&staff_caller(Grant::All), change(current, new), None)
            .await
            .expect_err("refused");
        assert!(
            matches!(
                error,
                AppError::Invalid {
                    field: "newPassword",
                    ..
                }
            ),
            "{new}: {error:?}"
        );
    }
}

#[tokio::test]
async fn an_api_key_has_no_password_to_change() {
    let mut mocks = Mocks::default();
    mocks.staff.expect_change_own_password().never();
    let error = mocks
        .build()
        .change_own_password(
            &api_key_caller(Grant::All),
            change("correct horse battery", "a brand new long password"),
            None,
        )
        .await
        .expect_err("refused");
    assert!(matches!(
        error,
        AppError::Invalid {
            field: "credential",
            ..
        }
    ));
}
