//! Migrations and connecting.

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::access::ports::OperatorStore;
use opinion_app::ports::StoreError;
use opinion_store_pg::{PgStore, create_database_if_missing, run_migrations};

use crate::fixtures::*;

#[tokio::test]
async fn migrating_again_changes_nothing() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;

    run_migrations(db.url()).await.expect("migrate again");
    let (first, second) = tokio::join!(run_migrations(db.url()), run_migrations(db.url()));
    first.expect("concurrent migration");
    second.expect("concurrent migration");

    assert_eq!(
        store.find_operator(operator_id(1)).await.expect("find"),
        Some(operator(1))
    );
}

#[tokio::test]
async fn an_unusable_url_fails_fast() {
    let refused = PgStore::connect("postgres://nobody@127.0.0.1:1/none", 2).await;
    assert!(matches!(refused, Err(StoreError::Unavailable(_))), "{refused:?}");

    let garbage = PgStore::connect("not a url", 2).await;
    assert!(matches!(garbage, Err(StoreError::Unavailable(_))), "{garbage:?}");

    let migrate = run_migrations("postgres://nobody@127.0.0.1:1/none").await;
    assert!(matches!(migrate, Err(StoreError::Unavailable(_))), "{migrate:?}");
}

/// `url` with its database name replaced by `name`.
fn url_of_database(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let server = base.rsplit_once('/').map_or(base, |(server, _)| server);
    match query {
        Some(query) => format!("{server}/{name}?{query}"),
        None => format!("{server}/{name}"),
    }
}

#[tokio::test]
async fn a_new_database_is_created_once_and_migrated_from_scratch() {
    let (db, _store) = store().await;
    let name = format!("store_pg_fresh_{}", std::process::id());

    create_database_if_missing(db.url(), &name).await.expect("create");
    create_database_if_missing(db.url(), &name).await.expect("create again");
    let fresh = url_of_database(db.url(), &name);
    run_migrations(&fresh).await.expect("migrate from scratch");
    run_migrations(&fresh).await.expect("migrate again");

    let store = PgStore::connect(&fresh, 1).await.expect("connect");
    given_operator(&store, 1).await;
    assert_eq!(
        store.find_operator(operator_id(1)).await.expect("find"),
        Some(operator(1))
    );
    drop(store);
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    diesel::sql_query(format!("DROP DATABASE \"{name}\" WITH (FORCE)"))
        .execute(&mut conn)
        .await
        .expect("drop the fresh database");
}
