//! Tenant isolation: operator 2 naming operator 1's rows sees nothing and changes
//! nothing.

use opinion_app::access::ports::{ApiKeyStore, SessionStore, StaffStore};
use opinion_app::model::{ApiKeyUse, StaffPatch};
use opinion_core::{ApiKeyId, PageRequest, StaffId, StaffSessionId};

use crate::fixtures::*;

#[tokio::test]
async fn another_operator_can_neither_read_nor_change_keys() {
    let (_db, store) = store().await;
    let theirs = given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let (a, b) = (operator_id(1), operator_id(2));

    assert_eq!(store.revoke_api_key(b, theirs.id, at(1)).await.expect("revoke"), None);
    store
        .record_api_key_use(
            b,
            theirs.id,
            &ApiKeyUse {
                at: at(1),
                ip: None,
                user_agent: None,
            },
            at(1) - time::Duration::minutes(1),
        )
        .await
        .expect("record");

    assert_eq!(store.find_api_key(b, theirs.id).await.expect("find"), None);
    let stored = store.find_api_key_by_hash(&key_hash(1)).await.expect("find");
    assert_eq!(stored, Some(theirs.clone()));
    assert_eq!(store.find_api_key(a, theirs.id).await.expect("find"), stored);
    let listed = store.list_api_keys(b, PageRequest::default()).await.expect("list");
    assert_eq!(
        listed.items.iter().map(|k| k.id).collect::<Vec<_>>(),
        [ApiKeyId::from_u128(2)]
    );
    let listed = store.list_api_keys(a, PageRequest::default()).await.expect("list");
    assert_eq!(
        listed.items.iter().map(|k| k.id).collect::<Vec<_>>(),
        [ApiKeyId::from_u128(1)]
    );
}

#[tokio::test]
async fn another_operator_can_neither_read_nor_change_staff_or_sessions() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let (a, b) = (operator_id(1), operator_id(2));
    let ana = member(1, 10);
    store.insert_staff(&ana, PASSWORD_HASH).await.expect("insert");
    let live = session(1, 10, 100);
    store.insert_session(&live).await.expect("insert session");
    let disable = StaffPatch {
        name: Some("Taken over".into()),
        disabled: Some(true),
        ..StaffPatch::default()
    };

    assert_eq!(store.find_staff(b, ana.id).await.expect("find"), None);
    assert!(
        store
            .list_staff(b, PageRequest::default())
            .await
            .expect("list")
            .items
            .is_empty()
    );
    assert_eq!(
        store.update_staff(b, ana.id, &disable, at(1)).await.expect("update"),
        None
    );
    let reset = store.reset_staff_password(b, ana.id, OTHER_PASSWORD_HASH, at(1)).await;
    assert_eq!(reset.expect("reset"), None);
    assert_eq!(store.find_session(b, live.id).await.expect("find session"), None);
    store.end_session(b, live.id, at(1)).await.expect("end");

    assert_eq!(store.find_staff(a, ana.id).await.expect("find"), Some(ana.clone()));
    let login = store.find_staff_login(ana.email.as_str()).await.expect("login");
    assert_eq!(login, Some((ana.clone(), PASSWORD_HASH.to_owned())));
    assert_eq!(
        store.find_session(a, live.id).await.expect("find session"),
        Some((live, ana))
    );
    assert_eq!(store.find_staff(b, StaffId::from_u128(10)).await.expect("find"), None);
    assert_eq!(
        store
            .find_session(b, StaffSessionId::from_u128(100))
            .await
            .expect("find"),
        None
    );
}
