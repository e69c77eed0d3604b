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
