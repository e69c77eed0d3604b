//! An operator's caps on active API keys and enabled staff members: met, then refused
//! with nothing written, taken in turns by concurrent creations, and made room in by
//! revoking or disabling one. (Webhook endpoints: `webhooks/mod.rs`.)

use opinion_access::OperatorCap;
use opinion_app::access::ports::{ApiKeyStore, StaffStore};
use opinion_app::model::{ApiKeyRecord, StaffPatch};
use opinion_app::ports::StoreError;
use opinion_core::ApiKeyId;

use crate::fixtures::*;

/// Key `n` of operator 1 that never expires.
fn lasting_key(n: u128) -> ApiKeyRecord {
    ApiKeyRecord {
        expires_at: None,
        ..key(1, n)
    }
}

#[tokio::test]
async fn active_keys_stop_at_the_cap_even_when_created_together_and_a_revoke_makes_room() {
    let (_db, store) = store().await;
    let first = given_operator(&store, 1).await;
    store
        .revoke_api_key(operator_id(1), first.id, T0)
        .await
        .expect("revoke");
    let limit = u128::from(OperatorCap::ActiveApiKeys.limit());
    for n in 100..100 + limit - 1 {
        store
            .insert_api_key(&lasting_key(n), &key_hash(n))
            .await
            .expect("within the cap");
    }
    let expired = ApiKeyRecord {
        expires_at: Some(at(60)),
        ..key(1, 5_000)
    };
    store
        .insert_api_key(&expired, &key_hash(5_000))
        .await
        .expect("an expired key is not counted");

    let (a, b) = (lasting_key(9_001), lasting_key(9_002));
    let (hash_a, hash_b) = (key_hash(9_001), key_hash(9_002));
    let (one, other) = tokio::join!(store.insert_api_key(&a, &hash_a), store.insert_api_key(&b, &hash_b));
    let refused: Vec<_> = [one, other].into_iter().filter_map(Result::err).collect();
    assert!(
        matches!(refused.as_slice(), [StoreError::CapReached(OperatorCap::ActiveApiKeys)]),
        "one of two made together is refused: {refused:?}"
    );
    let another = lasting_key(9_003);
    assert!(matches!(
        store.insert_api_key(&another, &key_hash(9_003)).await,
        Err(StoreError::CapReached(OperatorCap::ActiveApiKeys))
    ));
    assert!(
        store
            .find_api_key_by_hash(&key_hash(9_003))
            .await
            .expect("read")
            .is_none(),
        "nothing written"
    );
    store
        .revoke_api_key(operator_id(1), ApiKeyId::from_u128(100), T0)
        .await
        .expect("revoke");
    store
        .insert_api_key(&another, &key_hash(9_003))
        .await
        .expect("room again");
}

#[tokio::test]
async fn enabled_members_stop_at_the_cap_and_enabling_one_again_needs_room() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let limit = u128::from(OperatorCap::EnabledStaff.limit());
    for n in 1..=limit {
        store
            .insert_staff(&member(1, n), PASSWORD_HASH)
            .await
            .expect("within the cap");
    }
    let full = |error: Option<StoreError>| matches!(error, Some(StoreError::CapReached(OperatorCap::EnabledStaff)));
    let one_more = member(1, limit + 1);
    assert!(full(store.insert_staff(&one_more, PASSWORD_HASH).await.err()));
    let disabled = opinion_app::model::StaffMember {
        disabled: true,
        ..member(1, limit + 2)
    };
    store
        .insert_staff(&disabled, PASSWORD_HASH)
        .await
        .expect("a disabled member is not counted");
    let enable = StaffPatch {
        disabled: Some(false),
        ..StaffPatch::default()
    };
    let enabling = store.update_staff(operator_id(1), disabled.id, &enable, at(10)).await;
    assert!(
        full(enabling.err()),
        "enabling one again passes the cap no more than creating one"
    );
    let disable = StaffPatch {
        disabled: Some(true),
        ..StaffPatch::default()
    };
    store
        .update_staff(operator_id(1), member(1, 1).id, &disable, at(20))
        .await
        .expect("disable");
    let enabled = store
        .update_staff(operator_id(1), disabled.id, &enable, at(30))
        .await
        .expect("room again")
        .expect("found");
    assert!(!enabled.disabled);
}
