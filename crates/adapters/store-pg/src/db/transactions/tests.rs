//! Reads of one step share its connection: held at once, answered by the same backend
//! as the step's exclusive calls, and pipelined on it; outside a step each takes its own.

use std::time::Duration;

use diesel::sql_types::Integer;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::ports::Transactions;
use opinion_testkit::TestDatabase;

use crate::db::pool::PgStore;

/// The backend answering a connection.
#[derive(QueryableByName)]
struct Backend {
    #[diesel(sql_type = Integer)]
    pid: i32,
}

/// The backend behind `conn`.
async fn backend(mut conn: &AsyncPgConnection) -> i32 {
    let found: Backend = sql_query("SELECT pg_backend_pid() AS pid")
        .get_result(&mut conn)
        .await
        .expect("backend pid");
    found.pid
}

/// Long enough for a connection the first read held alone to be seen never to come.
const PATIENCE: Duration = Duration::from_secs(5);

#[tokio::test]
async fn the_reads_of_a_step_share_its_connection_and_run_together() {
    let db = TestDatabase::create().await;
    let store = PgStore::connect(db.url(), 4).await.expect("store");
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
