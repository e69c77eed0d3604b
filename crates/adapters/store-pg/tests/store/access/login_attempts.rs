//! Staff login throttling counters: one row per e-mail and client address, counted into
//! by every instance under a row lock.

use std::sync::Arc;

use opinion_access::{LoginThrottle, ThrottleKey};
use opinion_app::access::ports::LoginAttemptStore;
use opinion_store_pg::PgStore;
use time::Duration;

use crate::fixtures::*;

fn throttle() -> LoginThrottle {
    LoginThrottle {
        email_attempts: 5,
        address_attempts: 8,
        ..LoginThrottle::default()
    }
}

fn keys(email: &str) -> [ThrottleKey; 2] {
    [
        ThrottleKey::email(email),
        ThrottleKey::address("203.0.113.9".parse().expect("address")),
    ]
}

#[tokio::test]
async fn an_email_is_refused_after_its_attempts_until_the_lock_ends() {
    let (_db, store) = store().await;
    let throttle = throttle();
    for second in 0..5 {
        let decided = store
            .admit_login_attempt(&keys("ana@example.com"), &throttle, at(second))
            .await
            .expect("admit");
        assert_eq!(decided, None, "attempt {second}");
    }
    let refused = store
        .admit_login_attempt(&keys("ana@example.com"), &throttle, at(5))
        .await
        .expect("admit");
    assert_eq!(refused, Some(Duration::minutes(1)));
    let still = store
        .admit_login_attempt(&keys("ANA@example.com "), &throttle, at(35))
        .await
        .expect("admit");
    assert_eq!(still, Some(Duration::seconds(30)), "the same e-mail however typed");
    let after = store
        .admit_login_attempt(&keys("ana@example.com"), &throttle, at(65))
        .await
        .expect("admit");
    assert_eq!(after, None);
}

#[tokio::test]
async fn an_address_is_refused_across_emails_and_refusals_cost_it_nothing() {
    let (_db, store) = store().await;
    let throttle = throttle();
    for n in 0..8 {
        let decided = store
            .admit_login_attempt(&keys(&format!("user{n}@example.com")), &throttle, at(n))
            .await
            .expect("admit");
        assert_eq!(decided, None, "attempt {n}");
    }
    let refused = store
        .admit_login_attempt(&keys("fresh@example.com"), &throttle, at(9))
        .await
        .expect("admit");
    assert_eq!(refused, Some(Duration::minutes(1)));
    let elsewhere = [
        ThrottleKey::email("fresh@example.com"),
        ThrottleKey::address("198.51.100.1".parse().expect("address")),
    ];
    for second in 10..15 {
        let decided = store
            .admit_login_attempt(&elsewhere, &throttle, at(second))
            .await
            .expect("admit");
        assert_eq!(decided, None, "the refused attempt did not count for the e-mail");
    }
}

#[tokio::test]
async fn a_success_forgets_the_email_and_gives_the_address_its_attempt_back() {
    let (_db, store) = store().await;
    let throttle = throttle();
    for second in 0..5 {
        store
            .admit_login_attempt(&keys("ana@example.com"), &throttle, at(second))
            .await
            .expect("admit");
    }
    store
        .record_login_success(&keys("ana@example.com"), &throttle, at(5))
        .await
        .expect("success");
    for second in 6..9 {
        let decided = store
            .admit_login_attempt(&keys("ana@example.com"), &throttle, at(second))
            .await
            .expect("admit");
        assert_eq!(decided, None, "the e-mail starts again");
    }
    let address_only = [ThrottleKey::address("203.0.113.9".parse().expect("address"))];
    let eighth = store
        .admit_login_attempt(&address_only, &throttle, at(10))
        .await
        .expect("admit");
    assert_eq!(eighth, None, "5 - 1 given back + 3 + this one");
    let ninth = store
        .admit_login_attempt(&address_only, &throttle, at(11))
        .await
        .expect("admit");
    assert_eq!(ninth, Some(Duration::minutes(1)));
}

#[tokio::test]
async fn two_instances_count_into_one_row() {
    let (db, first) = store().await;
    let second = PgStore::connect(db.url(), 4).await.expect("second instance");
    let stores: [Arc<dyn LoginAttemptStore>; 2] = [Arc::new(first), Arc::new(second)];
    let throttle = throttle();
    let mut attempts = tokio::task::JoinSet::new();
    for n in 0..20 {
        let store = stores[n % 2].clone();
        attempts.spawn(async move {
            store
                .admit_login_attempt(&keys("ana@example.com"), &throttle, at(1))
                .await
                .expect("admit")
        });
    }
    let decided = attempts.join_all().await;
    let admitted = decided.iter().filter(|wait| wait.is_none()).count();
    assert_eq!(admitted, 5, "{decided:?}");
}

#[tokio::test]
async fn pruning_deletes_only_counters_untouched_since_the_cutoff() {
    let (_db, store) = store().await;
    let throttle = throttle();
    store
        .admit_login_attempt(&keys("old@example.com"), &throttle, at(0))
        .await
        .expect("admit");
    store
        .admit_login_attempt(&keys("new@example.com"), &throttle, at(100))
        .await
        .expect("admit");
    let pruned = store.prune_login_attempts(at(50), 100).await.expect("prune");
    assert_eq!(pruned, 1, "the old e-mail's counter; the address was touched at 100");
    let pruned = store.prune_login_attempts(at(200), 1).await.expect("prune");
    assert_eq!(pruned, 1, "at most the limit");
}
