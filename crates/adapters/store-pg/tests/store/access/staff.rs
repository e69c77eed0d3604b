//! Staff members: unique logins, patches, and the sessions they end.

use opinion_access::{Grant, StaffEmail};
use opinion_app::access::ports::{SessionStore, StaffStore};
use opinion_app::model::StaffPatch;
use opinion_app::ports::{StoreError, UniqueKey};
use opinion_core::{PageLimit, PageRequest, StaffId, StaffSessionId};

use crate::fixtures::*;

#[tokio::test]
async fn a_member_is_found_by_id_and_by_login() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let ana = member(1, 10);
    store.insert_staff(&ana, PASSWORD_HASH).await.expect("insert");

    assert_eq!(
        store.find_staff(operator_id(1), ana.id).await.expect("find"),
        Some(ana.clone())
    );
    let login = store.find_staff_login(ana.email.as_str()).await.expect("login");
    assert_eq!(login, Some((ana, PASSWORD_HASH.to_owned())));
    assert_eq!(store.find_staff_login("nobody@example.com").await.expect("login"), None);
}

#[tokio::test]
async fn an_email_belongs_to_one_member_across_operators() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    store.insert_staff(&member(1, 10), PASSWORD_HASH).await.expect("insert");
    let mut twin = member(2, 20);
    twin.email = member(1, 10).email;

    let result = store.insert_staff(&twin, PASSWORD_HASH).await;

    assert!(
        matches!(result, Err(StoreError::Duplicate(UniqueKey::StaffEmail))),
        "{result:?}"
    );
}

#[tokio::test]
async fn listing_pages_through_staff_newest_first() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    for n in [10, 11, 12] {
        store.insert_staff(&member(1, n), PASSWORD_HASH).await.expect("insert");
    }
    let limit = PageLimit::new(2).expect("valid limit");

    let first = store
        .list_staff(operator_id(1), PageRequest { limit, after: None })
        .await
        .expect("list");
    let second = store
        .list_staff(
            operator_id(1),
            PageRequest {
                limit,
                after: first.next,
            },
        )
        .await
        .expect("list");

    let ids = |page: &opinion_core::Page<_, _>| {
        page.items
            .iter()
            .map(|m: &opinion_app::model::StaffMember| m.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&first), [StaffId::from_u128(12), StaffId::from_u128(11)]);
    assert_eq!(ids(&second), [StaffId::from_u128(10)]);
    assert!(!second.has_more());
}

#[tokio::test]
async fn a_patch_changes_only_its_fields() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let ana = member(1, 10);
    store.insert_staff(&ana, PASSWORD_HASH).await.expect("insert");
    let grant = Grant::parse(&["staffs:read"]).expect("valid grant");
    let patch = StaffPatch {
        grant: Some(grant.clone()),
        ..StaffPatch::default()
    };

    let updated = store
        .update_staff(operator_id(1), ana.id, &patch, at(5))
        .await
        .expect("update");

    let expected = opinion_app::model::StaffMember {
        grant,
        updated_at: at(5),
        ..ana.clone()
    };
    assert_eq!(updated, Some(expected.clone()));
    assert_eq!(
        store.find_staff(operator_id(1), ana.id).await.expect("find"),
        Some(expected)
    );
    let renamed = StaffPatch {
        name: Some("Ana Maria".into()),
        ..StaffPatch::default()
    };
    let updated = store
        .update_staff(operator_id(1), ana.id, &renamed, at(6))
        .await
        .expect("update");
    assert_eq!(
        updated.map(|m| (m.name, m.disabled, m.updated_at)),
        Some(("Ana Maria".into(), false, at(6)))
    );
    let missing = store
        .update_staff(operator_id(1), StaffId::from_u128(99), &renamed, at(7))
        .await;
    assert_eq!(missing.expect("update missing"), None);
}

#[tokio::test]
async fn disabling_a_member_ends_their_sessions_only() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    store.insert_staff(&member(1, 10), PASSWORD_HASH).await.expect("insert");
    store.insert_staff(&member(1, 11), PASSWORD_HASH).await.expect("insert");
    for (staff, n) in [(10, 100), (10, 101), (11, 110)] {
        store
            .insert_session(&session(1, staff, n))
            .await
            .expect("insert session");
    }
    store
        .end_session(operator_id(1), StaffSessionId::from_u128(101), at(1))
        .await
        .expect("logout");
    let disable = StaffPatch {
        disabled: Some(true),
        ..StaffPatch::default()
    };

    let updated = store
        .update_staff(operator_id(1), StaffId::from_u128(10), &disable, at(2))
        .await
        .expect("disable");

    assert_eq!(updated.map(|m| m.disabled), Some(true));
    let ended_at = async |n| {
        store
            .find_session(operator_id(1), StaffSessionId::from_u128(n))
            .await
            .expect("find session")
            .map(|(s, _)| s.ended_at)
    };
    assert_eq!(ended_at(100).await, Some(Some(at(2))));
    assert_eq!(ended_at(101).await, Some(Some(at(1))));
    assert_eq!(ended_at(110).await, Some(None));
}

#[tokio::test]
async fn re_enabling_does_not_touch_sessions() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    store.insert_staff(&member(1, 10), PASSWORD_HASH).await.expect("insert");
    store
        .insert_session(&session(1, 10, 100))
        .await
        .expect("insert session");
    let enable = StaffPatch {
        disabled: Some(false),
        ..StaffPatch::default()
    };

    store
        .update_staff(operator_id(1), StaffId::from_u128(10), &enable, at(2))
        .await
        .expect("enable");

    let found = store
        .find_session(operator_id(1), StaffSessionId::from_u128(100))
        .await
        .expect("find session");
    assert_eq!(found.map(|(s, _)| s.ended_at), Some(None));
}

#[tokio::test]
async fn a_password_reset_replaces_the_hash_and_ends_sessions() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let ana = member(1, 10);
    store.insert_staff(&ana, PASSWORD_HASH).await.expect("insert");
    store
        .insert_session(&session(1, 10, 100))
        .await
        .expect("insert session");

    let reset = store
        .reset_staff_password(operator_id(1), ana.id, OTHER_PASSWORD_HASH, at(3))
        .await
        .expect("reset");

    assert_eq!(reset.map(|m| m.updated_at), Some(at(3)));
    let login = store.find_staff_login(ana.email.as_str()).await.expect("login");
    assert_eq!(login.map(|(_, hash)| hash), Some(OTHER_PASSWORD_HASH.to_owned()));
    let found = store
        .find_session(operator_id(1), StaffSessionId::from_u128(100))
        .await
        .expect("find session");
    assert_eq!(found.map(|(s, _)| s.ended_at), Some(Some(at(3))));
    let missing = store
        .reset_staff_password(operator_id(1), StaffId::from_u128(99), OTHER_PASSWORD_HASH, at(3))
        .await;
    assert_eq!(missing.expect("reset missing"), None);
}

#[tokio::test]
async fn the_store_keeps_the_email_it_is_given() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let mut ana = member(1, 10);
    ana.email = StaffEmail::parse("ana@example.com").expect("valid e-mail");
    store.insert_staff(&ana, PASSWORD_HASH).await.expect("insert");

    let login = store.find_staff_login("ana@example.com").await.expect("login");

    assert_eq!(login.map(|(m, _)| m.email), Some(ana.email));
}

#[tokio::test]
async fn a_row_the_domain_refuses_is_reported_not_returned() {
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

    let (db, store) = store().await;
    given_operator(&store, 1).await;
    let ana = member(1, 10);
    store.insert_staff(&ana, PASSWORD_HASH).await.expect("insert");
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    diesel::sql_query("UPDATE staff_members SET scopes = '{no:such}'")
        .execute(&mut conn)
        .await
        .expect("corrupt the row");

    let found = store.find_staff(operator_id(1), ana.id).await;

    assert!(
        matches!(&found, Err(StoreError::Unavailable(message)) if message.starts_with("corrupt row")),
        "{found:?}"
    );
}
