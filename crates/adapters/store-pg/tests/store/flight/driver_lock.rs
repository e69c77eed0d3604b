//! The driver lock: one holder at a time, freed when its lease is dropped or its session
//! dies.

use std::time::Duration;

use opinion_app::flight::ports::{DriverLease, DriverLock};
use opinion_store_pg::DRIVER_LOCK_KEY;

use super::*;

/// Another instance's store on the same database.
async fn instance(db: &TestDatabase) -> PgStore {
    PgStore::connect(db.url(), 2).await.expect("connect")
}

/// Tries for a few seconds: a closed session frees its lock once PostgreSQL has ended it.
async fn acquire_within_seconds(store: &PgStore) -> Box<dyn DriverLease> {
    for _ in 0..50 {
        if let Some(lease) = store.try_acquire().await.expect("try") {
            return lease;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the lock was not freed");
}

#[derive(QueryableByName)]
struct Pid {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pid: i32,
}

#[tokio::test]
async fn only_one_instance_holds_the_lock_until_it_drops_its_lease() {
    let (db, first) = store().await;
    let second = instance(&db).await;

    let mut lease = first
        .try_acquire()
        .await
        .expect("try")
        .expect("the first is the driver");
    assert!(second.try_acquire().await.expect("try").is_none());
    assert!(
        first.try_acquire().await.expect("try").is_none(),
        "not twice, even by its holder's pool"
    );
    assert!(lease.still_held().await);

    drop(lease);
    let mut taken_over = acquire_within_seconds(&second).await;
    assert!(taken_over.still_held().await);
    assert!(first.try_acquire().await.expect("try").is_none());
}

/// The backend process of the session holding the driver lock of this test's database
/// (the cluster is shared: other tests' databases hold the same key).
async fn holder_pid(admin: &mut AsyncPgConnection) -> i32 {
    let holder: Pid = diesel::sql_query(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 \
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
         AND ((classid::bigint << 32) | objid::bigint) = $1",
    )
    .bind::<BigInt, _>(DRIVER_LOCK_KEY)
    .get_result(admin)
    .await
    .expect("the holder");
    holder.pid
}

/// Sends `signal` (`STOP`, `CONT`) to a backend process of the test's server.
fn signal(pid: i32, signal: &str) {
    let sent = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .expect("kill");
    assert!(sent.success(), "kill -{signal} {pid}");
}

#[tokio::test]
async fn a_lease_whose_session_stops_answering_is_lost_after_two_seconds() {
    let (db, first) = store().await;
    let mut lease = first.try_acquire().await.expect("try").expect("driver");
    let mut admin = AsyncPgConnection::establish(db.url()).await.expect("connect");
    let pid = holder_pid(&mut admin).await;

    signal(pid, "STOP");
    let started = std::time::Instant::now();
    let held = lease.still_held().await;
    let waited = started.elapsed();
    signal(pid, "CONT");

    assert!(!held, "a session that does not answer is no lease");
    assert!(
        waited >= Duration::from_millis(1_900) && waited < Duration::from_secs(5),
        "the check waits two seconds: {waited:?}"
    );
    assert!(!lease.still_held().await, "lost for good");
}

#[tokio::test]
async fn a_lease_whose_session_was_killed_is_lost_and_the_lock_free() {
    let (db, first) = store().await;
    let second = instance(&db).await;
    let mut lease = first.try_acquire().await.expect("try").expect("driver");

    let mut admin = AsyncPgConnection::establish(db.url()).await.expect("connect");
    let pid = holder_pid(&mut admin).await;
    diesel::sql_query("SELECT pg_terminate_backend($1)")
        .bind::<diesel::sql_types::Integer, _>(pid)
        .execute(&mut admin)
        .await
        .expect("terminate");

    assert!(!lease.still_held().await);
    assert!(!lease.still_held().await, "lost for good");
    let mut taken_over = acquire_within_seconds(&second).await;
    assert!(taken_over.still_held().await);
}
