//! The statement keys: registration at start-up, rotation, and signing only with the
//! current key.

use std::sync::Arc;

use opinion_statement::StatementKey;
use time::Duration;

use crate::error::{AppError, ProblemCode};
use crate::test_support::NOW;
use crate::test_support::flight::ManualClock;
use crate::test_support::office::{MemoryKeys, office};

#[tokio::test]
async fn the_configured_key_becomes_current_once() {
    let keys = Arc::new(MemoryKeys::default());
    let clock = ManualClock::at(NOW);
    let first = office(1, keys.clone(), clock.clone());
    let registered = first.register_signing_key().await.expect("registered");
    assert_eq!(registered.key_id, StatementKey::from_seed([1; 32]).key_id());
    assert_eq!(registered.created_at, NOW);
    clock.advance_ms(1_000);
    let again = first.register_signing_key().await.expect("registered");
    assert_eq!(again, registered, "a known key is left as it is");
    assert_eq!(keys.0.lock().expect("keys").len(), 1);
    assert!(first.current_signing_key().await.is_ok());
}

#[tokio::test]
async fn a_new_configured_key_retires_the_current_one_and_the_old_instance_stops_signing() {
    let keys = Arc::new(MemoryKeys::default());
    let clock = ManualClock::at(NOW);
    let old = office(1, keys.clone(), clock.clone());
    old.register_signing_key().await.expect("registered");
    clock.advance_ms(60_000);
    let new = office(2, keys.clone(), clock.clone());
    new.register_signing_key().await.expect("registered");
    let listed = new.statement_keys().await.expect("keys");
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].retired_at, Some(NOW + Duration::minutes(1)));
    assert_eq!(listed[1].retired_at, None);
    assert!(new.current_signing_key().await.is_ok());
    let refused = old.current_signing_key().await.expect_err("retired");
    assert!(matches!(
        refused,
        AppError::Conflict {
            code: ProblemCode::StatementKeyNotCurrent,
            ..
        }
    ));
    let registered_again = old.register_signing_key().await.expect("kept retired");
    assert!(
        registered_again.retired_at.is_some(),
        "a retired key is never current again"
    );
}

#[tokio::test]
async fn rotation_retires_the_current_key_is_idempotent_and_refuses_a_retired_key() {
    let keys = Arc::new(MemoryKeys::default());
    let clock = ManualClock::at(NOW);
    let office = office(1, keys.clone(), clock.clone());
    office.register_signing_key().await.expect("registered");
    clock.advance_ms(1_000);
    let next = StatementKey::from_seed([3; 32]);
    let rotation = office.rotate_statement_key(&next).await.expect("rotated");
    assert_eq!(rotation.current.key_id, next.key_id());
    let retired = rotation.retired.expect("the previous key");
    assert_eq!(retired.key_id, StatementKey::from_seed([1; 32]).key_id());
    assert_eq!(retired.retired_at, Some(NOW + Duration::seconds(1)));

    let unchanged = office.rotate_statement_key(&next).await.expect("current already");
    assert_eq!(unchanged.retired, None);
    let refused = office
        .rotate_statement_key(&StatementKey::from_seed([1; 32]))
        .await
        .expect_err("retired");
    assert!(matches!(
        refused,
        AppError::Conflict {
            code: ProblemCode::StatementKeyRetired,
            ..
        }
    ));
    assert_eq!(keys.0.lock().expect("keys").len(), 2);
}
