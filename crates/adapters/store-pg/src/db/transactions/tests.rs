//! Reads of one step share its connection: held at once, answered by the same backend
//! as the step's exclusive calls, and pipelined on it; outside a step each takes its own.
//! A step's `BEGIN` travels with its first statements, which still run inside its
//! transaction.

use std::time::Duration;

use diesel::sql_types::BigInt;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::ports::Transactions;
use opinion_testkit::TestDatabase;

use crate::db::pool::PgStore;

/// The one number a probe statement answers.
#[derive(QueryableByName)]
struct Number {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// Runs `sql`, which answers one number as `n`, on `conn`.
async fn number(mut conn: &AsyncPgConnection, sql: &'static str) -> i64 {
    let found: Number = sql_query(sql).get_result(&mut conn).await.expect(sql);
    found.n
}

/// The backend behind `conn`.
async fn backend(conn: &AsyncPgConnection) -> i64 {
    number(conn, "SELECT pg_backend_pid()::bigint AS n").await
}

/// The id of the transaction `conn` runs its next statement in (assigned by asking).
async fn transaction_id(conn: &AsyncPgConnection) -> i64 {
    number(conn, "SELECT txid_current() AS n").await
}

/// Rows of the scratch table the step tests write.
async fn scratch_rows(store: &PgStore) -> i64 {
    number(
        &store.conn().await.expect("connection"),
        "SELECT count(*) AS n FROM step_scratch",
    )
    .await
}

/// A store over a database of its own (kept alive by the first half).
async fn fresh_store() -> (TestDatabase, PgStore) {
    let db = TestDatabase::create().await;
    let store = PgStore::connect(db.url(), 4).await.expect("store");
    (db, store)
}

/// Long enough for a connection the first read held alone to be seen never to come.
const PATIENCE: Duration = Duration::from_secs(5);

#[tokio::test]
async fn the_reads_of_a_step_share_its_connection_and_run_together() {
    let (_db, store) = fresh_store().await;
    let mut seen = None;
    store
        .run(Box::pin(async {
            let step = backend(&store.conn().await.expect("step")).await;
            let first = store.shared_conn().await.expect("first read");
            let second = tokio::time::timeout(PATIENCE, store.shared_conn())
                .await
                .expect("a second read shares the connection the first still holds")
                .expect("second read");
            let (one, two) = tokio::join!(backend(&first), backend(&second));
            seen = Some((step, one, two));
            true
        }))
        .await
        .expect("step");
    let (step, one, two) = seen.expect("the step ran");
    assert_eq!((one, two), (step, step), "both reads ran in the step's transaction");
    let first = store.shared_conn().await.expect("outside a step");
    let second = store.shared_conn().await.expect("outside a step");
    assert_ne!(
        backend(&first).await,
        backend(&second).await,
        "outside a step each read has a pooled connection of its own"
    );
}

#[tokio::test]
async fn a_steps_first_read_runs_in_the_transaction_its_begin_travels_with() {
    let (_db, store) = fresh_store().await;
    let mut seen = None;
    store
        .run(Box::pin(async {
            let first = transaction_id(&store.shared_conn().await.expect("first read")).await;
            let later = transaction_id(&store.conn().await.expect("later call")).await;
            seen = Some((first, later));
            true
        }))
        .await
        .expect("step");
    let (first, later) = seen.expect("the step ran");
    assert_eq!(
        first, later,
        "the first read ran after BEGIN, in the step's transaction"
    );
}

#[tokio::test]
async fn a_step_commits_its_writes_or_rolls_them_back_whole() {
    let (_db, store) = fresh_store().await;
    {
        let mut conn = store.conn().await.expect("connection");
        sql_query("CREATE TABLE step_scratch (n integer)")
            .execute(&mut *conn)
            .await
            .expect("scratch table");
    }
    for commit in [false, true] {
        store
            .run(Box::pin(async {
                let mut conn = store.conn().await.expect("step");
                sql_query("INSERT INTO step_scratch VALUES (1), (2)")
                    .execute(&mut *conn)
                    .await
                    .expect("write");
                commit
            }))
            .await
            .expect("step");
    }
    assert_eq!(
        scratch_rows(&store).await,
        2,
        "the step that gave up left nothing; the other kept both rows"
    );
}
