//! Wallet adapter configurations: stored whole with their secrets sealed, changed only
//! over the revision they were read at, and read per operator.

use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::WalletAdapterConfig;
use opinion_app::ports::StoreError;
use opinion_app::wallet::ports::WalletAdapterStore;
use opinion_store_pg::DataKey;
use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout, RetiringSecret};
use opinion_webhook::SigningSecret;
use time::{Duration, OffsetDateTime};

use crate::fixtures::*;

fn data_key(byte: u8) -> DataKey {
    DataKey::derive(&[byte; 32]).expect("data key")
}

fn secret(byte: u8) -> SigningSecret {
    SigningSecret::from_random_bytes(&[byte; 32]).expect("secret")
}

fn config(operator: u128, secrets: AdapterSecrets) -> WalletAdapterConfig {
    WalletAdapterConfig {
        operator_id: operator_id(operator),
        base_url: AdapterBaseUrl::parse("https://wallet.example.com/opinion", true).expect("url"),
        timeout: AdapterTimeout::from_millis(7_500).expect("timeout"),
        secrets,
        created_at: T0,
        updated_at: at(60),
        revision: 1,
    }
}

/// `previous` retiring at `until`, with `current` current.
fn rotated(current: u8, previous: u8, until: OffsetDateTime) -> AdapterSecrets {
    AdapterSecrets::restore(
        secret(current),
        Some(RetiringSecret {
            secret: secret(previous),
            signs_until: until.unix_timestamp(),
        }),
    )
}

#[derive(diesel::QueryableByName)]
struct Sealed {
    #[diesel(sql_type = Text)]
    secret_sealed: String,
}

async fn raw_secret_column(db_url: &str) -> Vec<String> {
    let mut conn = AsyncPgConnection::establish(db_url).await.expect("connect");
    diesel::sql_query("SELECT secret_sealed FROM wallet_adapters ORDER BY operator_id")
        .load::<Sealed>(&mut conn)
        .await
        .expect("read")
        .into_iter()
        .map(|row| row.secret_sealed)
        .collect()
}

#[tokio::test]
async fn a_configuration_reads_back_whole_and_its_secret_is_sealed() {
    let (db, store) = store().await;
    let store = store.with_data_key(data_key(1));
    given_operator(&store, 1).await;
    let until = T0 + Duration::hours(24);
    let saved = config(1, rotated(2, 1, until));

    assert!(store.save_wallet_adapter(&saved, None).await.expect("save"));

    assert_eq!(
        store.find_wallet_adapter(operator_id(1)).await.expect("find"),
        Some(saved.clone())
    );
    let [column] = raw_secret_column(db.url()).await.try_into().expect("one row");
    let revealed = secret(2).reveal();
    let base64 = revealed.trim_start_matches("whsec_");
    assert!(column.starts_with("v2.") && !column.contains(base64), "{column}");
}

#[tokio::test]
async fn a_change_is_written_only_over_the_revision_it_was_made_from() {
    let (_db, store) = store().await;
    let store = store.with_data_key(data_key(1));
    given_operator(&store, 1).await;
    let first = config(1, AdapterSecrets::new(secret(1)));
    assert!(store.save_wallet_adapter(&first, None).await.expect("create"));
    assert!(!store.save_wallet_adapter(&first, None).await.expect("create again"));

    let second = WalletAdapterConfig {
        secrets: first.secrets.rotate(secret(2), at(120).unix_timestamp()),
        updated_at: at(120),
        revision: 2,
        ..first.clone()
    };
    assert!(!store.save_wallet_adapter(&second, Some(7)).await.expect("stale"));
    assert_eq!(
        store.find_wallet_adapter(operator_id(1)).await.expect("find"),
        Some(first)
    );
    assert!(store.save_wallet_adapter(&second, Some(1)).await.expect("update"));
    assert_eq!(
        store.find_wallet_adapter(operator_id(1)).await.expect("find"),
        Some(second.clone())
    );

    let third = WalletAdapterConfig {
        secrets: AdapterSecrets::new(secret(3)),
        revision: 3,
        ..second
    };
    assert!(store.save_wallet_adapter(&third, Some(2)).await.expect("update"));
    let found = store.find_wallet_adapter(operator_id(1)).await.expect("find");
    assert_eq!(found.map(|config| config.secrets), Some(AdapterSecrets::new(secret(3))));
}

#[tokio::test]
async fn targets_sign_with_the_previous_secret_only_during_its_overlap() {
    let (_db, store) = store().await;
    let store = store.with_data_key(data_key(1));
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let now = OffsetDateTime::now_utc();
    let overlapping = config(1, rotated(2, 1, now + Duration::hours(1)));
    let expired = config(2, rotated(4, 3, now - Duration::hours(1)));
    assert!(store.save_wallet_adapter(&overlapping, None).await.expect("save"));
    assert!(store.save_wallet_adapter(&expired, None).await.expect("save"));

    let target = store
        .find_wallet_target(operator_id(1))
        .await
        .expect("find")
        .expect("target");
    assert_eq!(target.signing_secrets, [secret(2), secret(1)]);
    assert_eq!(target.base_url, "https://wallet.example.com/opinion");
    assert_eq!(target.timeout, std::time::Duration::from_millis(7_500));
    assert_eq!(target.operator_id, operator_id(1));
    let target = store
        .find_wallet_target(operator_id(2))
        .await
        .expect("find")
        .expect("target");
    assert_eq!(target.signing_secrets, [secret(4)]);
    assert_eq!(
        store
            .find_wallet_target(operator_id(3))
            .await
            .expect("find")
            .map(|t| t.base_url),
        None
    );
}

#[tokio::test]
async fn another_operator_sees_and_changes_nothing() {
    let (_db, store) = store().await;
    let store = store.with_data_key(data_key(1));
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let theirs = config(1, AdapterSecrets::new(secret(1)));
    assert!(store.save_wallet_adapter(&theirs, None).await.expect("save"));

    assert_eq!(store.find_wallet_adapter(operator_id(2)).await.expect("find"), None);
    let overwrite = WalletAdapterConfig {
        operator_id: operator_id(2),
        revision: 2,
        ..theirs.clone()
    };
    assert!(!store.save_wallet_adapter(&overwrite, Some(1)).await.expect("update"));
    assert_eq!(
        store.find_wallet_adapter(operator_id(1)).await.expect("find"),
        Some(theirs)
    );
}

#[tokio::test]
async fn secrets_open_only_with_the_data_key_and_in_their_own_row() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let keyed = store.clone().with_data_key(data_key(1));
    for operator in [1, 2] {
        let saved = config(operator, AdapterSecrets::new(secret(operator as u8)));
        assert!(keyed.save_wallet_adapter(&saved, None).await.expect("save"));
    }

    let unkeyed = store.find_wallet_adapter(operator_id(1)).await;
    assert!(matches!(unkeyed, Err(StoreError::Unavailable(_))), "{unkeyed:?}");
    let wrong_key = store.clone().with_data_key(data_key(2));
    let wrong = wrong_key.find_wallet_adapter(operator_id(1)).await;
    assert!(matches!(wrong, Err(StoreError::Unavailable(_))), "{wrong:?}");

    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    diesel::sql_query(
        "UPDATE wallet_adapters SET secret_sealed = (SELECT secret_sealed FROM wallet_adapters WHERE operator_id = $1) \
         WHERE operator_id = $2",
    )
    .bind::<diesel::sql_types::Uuid, _>(uuid::Uuid::from_u128(1))
    .bind::<diesel::sql_types::Uuid, _>(uuid::Uuid::from_u128(2))
    .execute(&mut conn)
    .await
    .expect("copy operator 1's sealed secret into operator 2's row");
    let moved = keyed.find_wallet_adapter(operator_id(2)).await;
    assert!(matches!(moved, Err(StoreError::Unavailable(_))), "{moved:?}");
    assert!(keyed.find_wallet_adapter(operator_id(1)).await.expect("find").is_some());
}
