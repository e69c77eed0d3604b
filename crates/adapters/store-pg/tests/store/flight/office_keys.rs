//! The platform's statement keys: one current, a new key retires it, two instances
//! registering at once agree, and the database refuses any change but a retirement.

use opinion_app::flight::office::model::StatementKeyRecord;
use opinion_app::flight::office::ports::StatementKeyStore;
use opinion_statement::StatementKey;

use super::*;

fn key(seed: u8, at_s: i64) -> StatementKeyRecord {
    StatementKeyRecord::new(StatementKey::from_seed([seed; 32]).public_key(), at(at_s))
}

/// Runs `sql` on the test database; answers the error text when it fails.
pub async fn execute(db: &TestDatabase, sql: &str) -> Result<usize, String> {
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    diesel::sql_query(sql)
        .execute(&mut conn)
        .await
        .map_err(|error| error.to_string())
}

#[tokio::test]
async fn a_new_key_retires_the_current_one_and_a_known_key_is_left_alone() {
    let (_db, store) = flight_store().await;
    assert_eq!(store.statement_keys().await.expect("keys"), []);
    let first = store.register_statement_key(&key(1, 0)).await.expect("first");
    assert_eq!(first, key(1, 0));
    let second = store.register_statement_key(&key(2, 60)).await.expect("second");
    assert_eq!(second, key(2, 60));
    let again = store.register_statement_key(&key(1, 120)).await.expect("known");
    assert_eq!(again.retired_at, Some(at(60)), "the stored record, retired");
    let keys = store.statement_keys().await.expect("keys");
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0].key_id, key(1, 0).key_id);
    assert_eq!(keys[0].retired_at, Some(at(60)));
    assert_eq!(keys[1].retired_at, None);
}

#[tokio::test]
async fn a_new_key_created_before_the_current_one_retires_it_at_its_own_creation() {
    let (_db, store) = flight_store().await;
    store.register_statement_key(&key(11, 5)).await.expect("current");

    let earlier = store.register_statement_key(&key(10, 0)).await.expect("registered");

    assert_eq!(earlier.retired_at, None);
    let keys = store.statement_keys().await.expect("keys");
    let rival = keys
        .iter()
        .find(|record| record.key_id == key(11, 5).key_id)
        .expect("the rival key");
    assert_eq!(rival.retired_at, Some(at(5)), "never retired before it was created");
}

#[tokio::test]
async fn instances_registering_at_once_make_one_key_current() {
    let (_db, store) = flight_store().await;
    let store = std::sync::Arc::new(store);
    let mut tasks = Vec::new();
    for n in 0..6u8 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            store.register_statement_key(&key(10 + n % 2, i64::from(n))).await
        }));
    }
    for task in tasks {
        task.await.expect("joined").expect("registered");
    }
    let keys = store.statement_keys().await.expect("keys");
    assert_eq!(keys.len(), 2);
    assert_eq!(keys.iter().filter(|record| record.retired_at.is_none()).count(), 1);
}

#[tokio::test]
async fn the_database_refuses_a_second_current_key_an_edit_an_unretirement_and_a_delete() {
    let (db, store) = flight_store().await;
    store.register_statement_key(&key(1, 0)).await.expect("first");
    store.register_statement_key(&key(2, 60)).await.expect("second");
    let public = StatementKey::from_seed([3; 32]).public_key();
    let insert = format!(
        "INSERT INTO statement_keys (key_id, public_key, created_at) VALUES ('{}', '{}', now())",
        public.key_id(),
        public.to_hex()
    );
    assert!(execute(&db, &insert).await.is_err(), "a second current key");
    let retired = key(1, 0).key_id;
    let current = key(2, 0).key_id;
    for sql in [
        format!("UPDATE statement_keys SET retired_at = NULL WHERE key_id = '{retired}'"),
        format!("UPDATE statement_keys SET retired_at = now() WHERE key_id = '{retired}'"),
        format!(
            "UPDATE statement_keys SET public_key = '{}' WHERE key_id = '{current}'",
            "0".repeat(64)
        ),
        format!("DELETE FROM statement_keys WHERE key_id = '{retired}'"),
        "DELETE FROM statement_keys".to_owned(),
    ] {
        let refused = execute(&db, &sql).await.expect_err(&sql);
        assert!(
            refused.contains("never deleted") || refused.contains("only ever retired"),
            "{sql}: {refused}"
        );
    }
    assert_eq!(
        execute(
            &db,
            &format!("UPDATE statement_keys SET retired_at = now() WHERE key_id = '{current}'")
        )
        .await,
        Ok(1),
        "retiring the current key is the one change allowed"
    );
}
