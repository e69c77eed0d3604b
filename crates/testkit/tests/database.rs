//! Each test gets its own migrated database, also when tests run in parallel on separate runtimes.

use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_testkit::TestDatabase;

async fn connect(url: &str) -> AsyncPgConnection {
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .expect("the test database accepts connections");
    conn.batch_execute("select 1").await.expect("the test database answers");
    conn
}

async fn current_database(url: &str) -> String {
    let mut conn = connect(url).await;
    diesel::select(diesel::dsl::sql::<Text>("current_database()"))
        .get_result(&mut conn)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_creates_give_distinct_reachable_databases() {
    let (a, b) = tokio::join!(TestDatabase::create(), TestDatabase::create());
    assert_ne!(a.url(), b.url());
    let (name_a, name_b) = tokio::join!(current_database(a.url()), current_database(b.url()));
    assert_ne!(name_a, name_b);
    assert!(a.url().ends_with(&format!("/{name_a}")));
}

#[tokio::test]
async fn a_test_database_is_migrated() {
    let db = TestDatabase::create().await;
    let mut conn = connect(db.url()).await;
    let applied: i64 = diesel::select(diesel::dsl::sql::<BigInt>(
        "(select count(*) from __diesel_schema_migrations)",
    ))
    .get_result(&mut conn)
    .await
    .unwrap();
    assert!(applied > 0, "no migrations were applied to the template");
}
