//! Operators and their API keys.

use std::collections::HashSet;

use opinion_app::access::ports::{ApiKeyStore, OperatorStore};
use opinion_app::ports::{StoreError, UniqueKey};
use opinion_core::{ApiKeyId, PageLimit, PageRequest};

use crate::fixtures::*;

#[tokio::test]
async fn operator_and_first_key_are_created_together_and_the_key_is_found_by_hash() {
    let (_db, store) = store().await;
    let first = given_operator(&store, 1).await;

    assert_eq!(
        store.find_operator(operator_id(1)).await.expect("find"),
        Some(operator(1))
    );
    assert_eq!(
        store.find_api_key_by_hash(&key_hash(1)).await.expect("find"),
        Some(first)
    );
    assert_eq!(store.find_api_key_by_hash(&key_hash(99)).await.expect("find"), None);
    assert_eq!(store.find_operator(operator_id(99)).await.expect("find"), None);
    store.ping().await.expect("ping");
}

#[tokio::test]
async fn an_operator_whose_first_key_fails_is_not_created() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;

    let reused_hash = store.insert_operator(&operator(2), &key(2, 2), &key_hash(1)).await;

    assert!(
        matches!(reused_hash, Err(StoreError::Duplicate(UniqueKey::ApiKeyHash))),
        "{reused_hash:?}"
    );
    assert_eq!(store.find_operator(operator_id(2)).await.expect("find"), None);
}

#[tokio::test]
async fn a_second_key_with_the_same_hash_is_a_duplicate() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;

    let result = store.insert_api_key(&key(1, 2), &key_hash(1)).await;

    assert!(
        matches!(result, Err(StoreError::Duplicate(UniqueKey::ApiKeyHash))),
        "{result:?}"
    );
}

#[tokio::test]
async fn listing_pages_through_keys_newest_first() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    for n in 2..=5 {
        store
            .insert_api_key(&key(1, n), &key_hash(n))
            .await
            .expect("insert key");
    }
    let limit = PageLimit::new(2).expect("valid limit");

    let mut pages = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list_api_keys(operator_id(1), PageRequest { limit, after })
            .await
            .expect("list");
        pages.push(page.items.iter().map(|k| k.id).collect::<Vec<_>>());
        after = page.next;
        if after.is_none() {
            break;
        }
    }

    let ids = |ns: &[u128]| ns.iter().map(|n| ApiKeyId::from_u128(*n)).collect::<Vec<_>>();
    assert_eq!(pages, vec![ids(&[5, 4]), ids(&[3, 2]), ids(&[1])]);
    let all: Vec<_> = pages.concat();
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len());
}

#[tokio::test]
async fn revoking_twice_keeps_the_first_time() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let id = ApiKeyId::from_u128(1);

    let first = store.revoke_api_key(operator_id(1), id, at(10)).await.expect("revoke");
    let second = store
        .revoke_api_key(operator_id(1), id, at(20))
        .await
        .expect("revoke again");

    assert_eq!(first.map(|k| k.revoked_at), Some(Some(at(10))));
    assert_eq!(second.map(|k| k.revoked_at), Some(Some(at(10))));
    let stored = store.find_api_key_by_hash(&key_hash(1)).await.expect("find");
    assert_eq!(stored.map(|k| k.revoked_at), Some(Some(at(10))));
    let missing = store
        .revoke_api_key(operator_id(1), ApiKeyId::from_u128(99), at(10))
        .await;
    assert_eq!(missing.expect("revoke missing"), None);
}

#[tokio::test]
async fn key_use_is_recorded_at_most_once_a_minute() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let id = ApiKeyId::from_u128(1);
    let last_used = async || {
        store
            .find_api_key_by_hash(&key_hash(1))
            .await
            .expect("find")
            .and_then(|k| k.last_used_at)
    };

    store
        .record_api_key_use(operator_id(1), id, at(0), at(0) - time::Duration::minutes(1))
        .await
        .expect("record");
    assert_eq!(last_used().await, Some(at(0)));

    store
        .record_api_key_use(operator_id(1), id, at(30), at(30) - time::Duration::minutes(1))
        .await
        .expect("record");
    store
        .record_api_key_use(operator_id(1), id, at(60), at(60) - time::Duration::minutes(1))
        .await
        .expect("record");
    assert_eq!(last_used().await, Some(at(0)));

    store
        .record_api_key_use(operator_id(1), id, at(61), at(61) - time::Duration::minutes(1))
        .await
        .expect("record");
    assert_eq!(last_used().await, Some(at(61)));

    store
        .record_api_key_use(operator_id(1), id, at(0), at(0) - time::Duration::minutes(1))
        .await
        .expect("record a late report");
    assert_eq!(last_used().await, Some(at(61)));
}
