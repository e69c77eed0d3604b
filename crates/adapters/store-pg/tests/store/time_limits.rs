//! The time limits of every session and wait: a statement past `statement_timeout`, a lock
//! wait past `lock_timeout`, a transaction idle past `idle_in_transaction_session_timeout`,
//! the wait for a pooled connection, the migration lock's wait. Each fails with a
//! classified error and leaves the store usable.

use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_app::access::ports::OperatorStore;
use opinion_app::ports::{StoreError, TimeLimit};
use opinion_store_pg::{DatabaseTarget, MIGRATION_LOCK_KEY, PgStore, SessionLimits, run_migrations_within};
use opinion_testkit::TestDatabase;

use crate::fixtures::*;

/// A short limit, so each test waits well under a second for it.
const SHORT: Duration = Duration::from_millis(300);

fn target(db: &TestDatabase, limits: SessionLimits) -> DatabaseTarget {
    DatabaseTarget::new(db.url(), None).expect("target").with_limits(limits)
}

/// A store of one connection over `db` with `limits`, operator 1 in it.
async fn store_with(db: &TestDatabase, limits: SessionLimits) -> PgStore {
    let store = PgStore::connect_to(&target(db, limits), 1).await.expect("connect");
    given_operator(&store, 1).await;
    store
}

/// Another session holding `operators` locked against every reader, until it is dropped
/// or rolled back.
async fn lock_operators(db: &TestDatabase) -> AsyncPgConnection {
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute("BEGIN; LOCK TABLE operators IN ACCESS EXCLUSIVE MODE")
        .await
        .expect("lock");
    conn
}

#[tokio::test]
async fn a_statement_past_its_time_limit_is_cancelled_and_the_connection_serves_the_next() {
    let db = TestDatabase::create().await;
    let limits = SessionLimits {
        statement: SHORT,
        lock: Duration::ZERO,
        ..SessionLimits::DEFAULT
    };
    let store = store_with(&db, limits).await;
    let mut holder = lock_operators(&db).await;

    let started = Instant::now();
    let refused = store.find_operator(operator_id(1)).await;
    assert!(
        matches!(refused, Err(StoreError::TimedOut(TimeLimit::Statement))),
        "{refused:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());

    holder.batch_execute("ROLLBACK").await.expect("release");
    assert_eq!(
        store
            .find_operator(operator_id(1))
            .await
            .expect("the same connection again"),
        Some(operator(1))
    );
}

#[tokio::test]
async fn a_lock_wait_past_its_limit_is_cancelled_and_the_connection_serves_the_next() {
    let db = TestDatabase::create().await;
    let limits = SessionLimits {
        lock: SHORT,
        ..SessionLimits::DEFAULT
    };
    let store = store_with(&db, limits).await;
    let mut holder = lock_operators(&db).await;

    let refused = store.find_operator(operator_id(1)).await;
    assert!(
        matches!(refused, Err(StoreError::TimedOut(TimeLimit::Lock))),
        "{refused:?}"
    );

    holder.batch_execute("ROLLBACK").await.expect("release");
    assert!(store.find_operator(operator_id(1)).await.expect("again").is_some());
}

#[tokio::test]
async fn a_transaction_left_idle_past_its_limit_ends_its_session_and_frees_its_locks() {
    let db = TestDatabase::create().await;
    let limits = SessionLimits {
        idle_in_transaction: SHORT,
        ..SessionLimits::DEFAULT
    };
    let target = target(&db, limits);
    let store = store_with(&db, limits).await;
    let mut forgotten = target.connect().await.expect("connect");
    forgotten
        .batch_execute("BEGIN; LOCK TABLE operators IN ACCESS EXCLUSIVE MODE")
        .await
        .expect("lock");

    tokio::time::sleep(SHORT * 3).await;
    assert!(
        forgotten.batch_execute("SELECT 1").await.is_err(),
        "the session was ended"
    );
    assert!(
        store
            .find_operator(operator_id(1))
            .await
            .expect("the lock is gone")
            .is_some()
    );
}

#[tokio::test]
async fn every_session_starts_with_the_limits_and_the_defaults_are_thirty_ten_and_sixty_seconds() {
    let db = TestDatabase::create().await;
    #[derive(diesel::QueryableByName)]
    struct Settings {
        #[diesel(sql_type = diesel::sql_types::Text)]
        statement: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        lock: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        idle: String,
    }
    let mut conn = DatabaseTarget::new(db.url(), None)
        .expect("target")
        .connect()
        .await
        .expect("connect");
    let settings: Settings = diesel::sql_query(
        "SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock, \
         current_setting('idle_in_transaction_session_timeout') AS idle",
    )
    .get_result(&mut conn)
    .await
    .expect("settings");
    assert_eq!(
        (
            settings.statement.as_str(),
            settings.lock.as_str(),
            settings.idle.as_str()
        ),
        ("30s", "10s", "1min")
    );
}

#[tokio::test]
async fn waiting_for_a_pooled_connection_is_bounded() {
    let db = TestDatabase::create().await;
    let limits = SessionLimits {
        lock: Duration::ZERO,
        ..SessionLimits::DEFAULT
    };
    let store = store_with(&db, limits).await.with_acquire_timeout(SHORT);
    let mut holder = lock_operators(&db).await;
    let busy = {
        let store = store.clone();
        tokio::spawn(async move { store.find_operator(operator_id(1)).await })
    };
    tokio::time::sleep(SHORT).await;

    let started = Instant::now();
    let refused = store.find_operator(operator_id(1)).await;
    assert!(
        matches!(refused, Err(StoreError::TimedOut(TimeLimit::PoolAcquire))),
        "{refused:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());

    holder.batch_execute("ROLLBACK").await.expect("release");
    assert!(busy.await.expect("task").expect("the first read ends").is_some());
    assert!(store.find_operator(operator_id(1)).await.expect("free again").is_some());
}

#[tokio::test]
async fn the_migration_lock_is_waited_for_a_bounded_time_and_its_holder_named() {
    let db = TestDatabase::create().await;
    let mut holder = AsyncPgConnection::establish(db.url()).await.expect("connect");
    holder
        .batch_execute(&format!(
            "SET application_name = 'stuck migrator'; SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"
        ))
        .await
        .expect("take the lock");
    let target = DatabaseTarget::new(db.url(), None).expect("target");

    let started = Instant::now();
    let refused = run_migrations_within(&target, SHORT).await;
    let Err(StoreError::Unavailable(message)) = refused else {
        panic!("expected a refusal: {refused:?}");
    };
    assert!(message.contains("migration lock"), "{message}");
    assert!(message.contains("application `stuck migrator`"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());

    holder
        .batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))
        .await
        .expect("release");
    run_migrations_within(&target, SHORT).await.expect("migrates once free");
}
