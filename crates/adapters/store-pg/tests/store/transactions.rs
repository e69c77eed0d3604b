//! `Transactions`: the store calls of a step share one transaction, committed or rolled
//! back as the step answers; other tasks see nothing of it before its commit; a write
//! refused inside the step (its own transaction, a savepoint there) leaves the step
//! usable; a step inside a step joins it; reads the step asks for together read its
//! transaction.

use opinion_app::access::ports::OperatorStore;
use opinion_app::ports::{StoreError, Transactions};
use opinion_store_pg::PgStore;

use crate::fixtures::{given_operator, key, key_hash, operator, operator_id, store};

/// Whether another task (outside any step) finds operator `n`.
async fn seen_from_outside(store: &PgStore, n: u128) -> bool {
    let store = store.clone();
    tokio::spawn(async move { store.find_operator(operator_id(n)).await })
        .await
        .expect("task")
        .expect("find")
        .is_some()
}

#[tokio::test]
async fn a_step_that_succeeds_commits_its_reads_and_writes_together() {
    let (_db, store) = store().await;
    let mut inside = (false, true);
    store
        .run(Box::pin(async {
            given_operator(&store, 1).await;
            let read_back = store.find_operator(operator_id(1)).await.expect("find").is_some();
            inside = (read_back, seen_from_outside(&store, 1).await);
            true
        }))
        .await
        .expect("committed");
    assert_eq!(
        inside,
        (true, false),
        "the step reads its own write; nobody else does yet"
    );
    assert!(seen_from_outside(&store, 1).await, "committed");
}

#[tokio::test]
async fn a_step_that_fails_leaves_nothing() {
    let (_db, store) = store().await;
    store
        .run(Box::pin(async {
            given_operator(&store, 1).await;
            false
        }))
        .await
        .expect("rolled back");
    assert!(!seen_from_outside(&store, 1).await);
    given_operator(&store, 1).await;
    assert!(
        seen_from_outside(&store, 1).await,
        "the connection went back to the pool usable"
    );
}

#[tokio::test]
async fn reads_asked_for_together_inside_a_step_see_its_uncommitted_writes() {
    let (_db, store) = store().await;
    let mut found = (false, false);
    store
        .run(Box::pin(async {
            given_operator(&store, 1).await;
            given_operator(&store, 2).await;
            let (one, two) = tokio::join!(store.find_operator(operator_id(1)), store.find_operator(operator_id(2)));
            found = (one.expect("find").is_some(), two.expect("find").is_some());
            false
        }))
        .await
        .expect("rolled back");
    assert_eq!(found, (true, true));
    assert!(!seen_from_outside(&store, 1).await);
}

#[tokio::test]
async fn a_write_refused_inside_a_step_leaves_the_step_usable() {
    let (_db, store) = store().await;
    let mut refused = None;
    store
        .run(Box::pin(async {
            given_operator(&store, 1).await;
            refused = Some(store.insert_operator(&operator(1), &key(1, 2), &key_hash(2)).await);
            given_operator(&store, 3).await;
            true
        }))
        .await
        .expect("committed");
    assert!(matches!(refused, Some(Err(StoreError::Duplicate(_)))), "{refused:?}");
    assert!(seen_from_outside(&store, 1).await);
    assert!(seen_from_outside(&store, 3).await);
}

#[tokio::test]
async fn a_step_inside_a_step_joins_it() {
    let (_db, store) = store().await;
    store
        .run(Box::pin(async {
            store
                .run(Box::pin(async {
                    given_operator(&store, 1).await;
                    true
                }))
                .await
                .expect("joined");
            assert!(!seen_from_outside(&store, 1).await, "the inner step does not commit");
            false
        }))
        .await
        .expect("rolled back");
    assert!(
        !seen_from_outside(&store, 1).await,
        "the outer step's rollback undoes the inner"
    );
}

#[tokio::test]
async fn a_step_dropped_half_way_leaves_nothing_and_the_pool_usable() {
    let (_db, store) = store().await;
    let step = store.run(Box::pin(async {
        given_operator(&store, 1).await;
        std::future::pending::<bool>().await
    }));
    let timed_out = tokio::time::timeout(std::time::Duration::from_millis(300), step).await;
    assert!(timed_out.is_err(), "the step never ends by itself");
    assert!(!seen_from_outside(&store, 1).await);
    for n in 2..=6 {
        given_operator(&store, n).await;
    }
    assert!(
        seen_from_outside(&store, 6).await,
        "every pooled connection still works"
    );
}
