//! Staff sessions, read with their member.

use opinion_app::access::ports::{SessionStore, StaffStore};
use opinion_core::StaffSessionId;

use crate::fixtures::*;

#[tokio::test]
async fn a_session_is_read_with_its_member() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let ana = member(1, 10);
    store.insert_staff(&ana, PASSWORD_HASH).await.expect("insert");
    let live = session(1, 10, 100);
    store.insert_session(&live).await.expect("insert session");

    let found = store.find_session(operator_id(1), live.id).await.expect("find");

    assert_eq!(found, Some((live, ana)));
    let missing = store.find_session(operator_id(1), StaffSessionId::from_u128(999)).await;
    assert_eq!(missing.expect("find missing"), None);
}

#[tokio::test]
async fn ending_twice_keeps_the_first_end() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    store.insert_staff(&member(1, 10), PASSWORD_HASH).await.expect("insert");
    let live = session(1, 10, 100);
    store.insert_session(&live).await.expect("insert session");

    store.end_session(operator_id(1), live.id, at(5)).await.expect("end");
    store
        .end_session(operator_id(1), live.id, at(9))
        .await
        .expect("end again");

    let found = store.find_session(operator_id(1), live.id).await.expect("find");
    let session = found.map(|(s, _)| s).expect("session exists");
    assert_eq!(session.ended_at, Some(at(5)));
    assert!(!session.is_live_at(at(6)));
}

#[tokio::test]
async fn changing_ones_own_password_ends_every_other_session_of_the_member() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    store.insert_staff(&member(1, 10), PASSWORD_HASH).await.expect("insert");
    store.insert_staff(&member(1, 11), PASSWORD_HASH).await.expect("insert");
    let (kept, other, colleague) = (session(1, 10, 100), session(1, 10, 101), session(1, 11, 102));
    for live in [&kept, &other, &colleague] {
        store.insert_session(live).await.expect("insert session");
    }

    let changed = store
        .change_own_password(operator_id(1), member(1, 10).id, OTHER_PASSWORD_HASH, kept.id, at(5))
        .await
        .expect("change");

    assert_eq!(changed.map(|m| m.updated_at), Some(at(5)));
    let ended = |id| {
        let store = &store;
        async move {
            let (session, _) = store
                .find_session(operator_id(1), id)
                .await
                .expect("find")
                .expect("exists");
            session.ended_at
        }
    };
    assert_eq!(ended(kept.id).await, None, "the session it was changed in stays");
    assert_eq!(ended(other.id).await, Some(at(5)));
    assert_eq!(ended(colleague.id).await, None, "another member's session is untouched");
    let (_, hash) = store
        .find_staff_password(operator_id(1), member(1, 10).id)
        .await
        .expect("find")
        .expect("exists");
    assert_eq!(hash, OTHER_PASSWORD_HASH);
    let missing = store
        .change_own_password(operator_id(2), member(1, 10).id, PASSWORD_HASH, kept.id, at(6))
        .await
        .expect("change");
    assert_eq!(missing, None, "another operator's member is not found");
}
