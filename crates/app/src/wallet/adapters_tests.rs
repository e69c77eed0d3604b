//! The wallet adapter use cases against mocks: each rule fails its test if broken.

use crate::test_support::{counting_random, fixed_clock};
use std::sync::{Arc, Mutex};

use opinion_access::Grant;
use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout, SECRET_OVERLAP_SECS};
use opinion_webhook::SigningSecret;
use time::Duration;

use super::adapters::*;
use crate::error::{AppError, ProblemCode};
use crate::model::WalletAdapterConfig;
use crate::ports::StoreError;
use crate::test_support::{NOW, OPERATOR, api_key_caller};
use crate::wallet::ports::MockWalletAdapterStore;

fn secret(byte: u8) -> SigningSecret {
    SigningSecret::from_random_bytes(&[byte; 32]).expect("secret")
}

fn service(store: MockWalletAdapterStore, production: bool) -> WalletAdapters {
    WalletAdapters::new(
        WalletAdapterPorts {
            store: Arc::new(store),
            clock: fixed_clock(),
            random: counting_random(1, [9; 32]),
        },
        WalletAdapterSettings { production },
    )
}

fn change(base_url: &str) -> WalletAdapterChange {
    WalletAdapterChange {
        base_url: base_url.into(),
        timeout_ms: None,
        rotate_secret: false,
    }
}

fn stored(revision: i64) -> WalletAdapterConfig {
    WalletAdapterConfig {
        operator_id: OPERATOR,
        base_url: AdapterBaseUrl::parse("https://old.example.com", true).expect("url"),
        timeout: AdapterTimeout::from_millis(5_000).expect("timeout"),
        secrets: AdapterSecrets::new(secret(1)),
        created_at: NOW - Duration::days(3),
        updated_at: NOW - Duration::days(1),
        revision,
    }
}

/// A store holding `existing` that records what is saved.
fn store_with(existing: Option<WalletAdapterConfig>) -> (MockWalletAdapterStore, Arc<Mutex<Vec<WalletAdapterConfig>>>) {
    let saved = Arc::new(Mutex::new(Vec::new()));
    let mut store = MockWalletAdapterStore::new();
    store
        .expect_find_wallet_adapter()
        .withf(|operator| *operator == OPERATOR)
        .returning(move |_| Ok(existing.clone()));
    let sink = saved.clone();
    store.expect_save_wallet_adapter().returning(move |config, _| {
        sink.lock().expect("lock").push(config.clone());
        Ok(true)
    });
    (store, saved)
}

fn caller() -> crate::access::Principal {
    api_key_caller(Grant::All)
}

#[tokio::test]
async fn the_first_set_makes_a_secret_and_returns_it_once() {
    let (store, saved) = store_with(None);
    let result = service(store, true)
        .set_wallet_adapter(&caller(), change("https://wallet.example.com/opinion/"))
        .await
        .expect("saved");
    assert!(result.created);
    assert_eq!(result.new_secret, Some(secret(9)));
    assert_eq!(result.adapter.previous_secret_expires_at, None);
    let [config] = saved.lock().expect("lock").clone().try_into().expect("one save");
    assert_eq!(config.base_url.as_str(), "https://wallet.example.com/opinion");
    assert_eq!(config.timeout, AdapterTimeout::DEFAULT);
    assert_eq!(config.secrets, AdapterSecrets::new(secret(9)));
    assert_eq!((config.created_at, config.updated_at, config.revision), (NOW, NOW, 1));
}

#[tokio::test]
async fn a_later_set_keeps_the_secret_and_returns_none() {
    let (store, saved) = store_with(Some(stored(4)));
    let mut request = change("https://new.example.com");
    request.timeout_ms = Some(20_000);
    let result = service(store, true)
        .set_wallet_adapter(&caller(), request)
        .await
        .expect("saved");
    assert!(!result.created);
    assert_eq!(result.new_secret, None);
    let config = saved.lock().expect("lock")[0].clone();
    assert_eq!(config.secrets, AdapterSecrets::new(secret(1)));
    assert_eq!(config.base_url.as_str(), "https://new.example.com");
    assert_eq!(config.timeout.as_millis(), 20_000);
    assert_eq!(config.revision, 5);
    assert_eq!(config.created_at, NOW - Duration::days(3));
    assert_eq!(config.updated_at, NOW);
}

#[tokio::test]
async fn rotation_keeps_the_previous_secret_signing_for_the_overlap() {
    let (store, saved) = store_with(Some(stored(1)));
    let mut request = change("https://old.example.com");
    request.rotate_secret = true;
    let result = service(store, true)
        .set_wallet_adapter(&caller(), request)
        .await
        .expect("saved");
    assert_eq!(result.new_secret, Some(secret(9)));
    assert_eq!(
        result.adapter.previous_secret_expires_at,
        Some(NOW + Duration::seconds(SECRET_OVERLAP_SECS))
    );
    let config = saved.lock().expect("lock")[0].clone();
    assert_eq!(result.adapter.config, config);
    assert_eq!(config.target(NOW).signing_secrets, [secret(9), secret(1)]);
    assert_eq!(
        config.overlap_ends_at(NOW),
        Some(NOW + Duration::seconds(SECRET_OVERLAP_SECS))
    );
    let after = NOW + Duration::seconds(SECRET_OVERLAP_SECS);
    assert_eq!(config.target(after).signing_secrets, [secret(9)]);
    assert_eq!(config.overlap_ends_at(after), None);
}

#[tokio::test]
async fn bad_input_names_the_field_and_writes_nothing() {
    let rows: [(&str, Option<i64>, bool, &str); 6] = [
        ("http://wallet.example.com", None, true, "baseUrl"),
        ("https://10.1.2.3/wallet", None, true, "baseUrl"),
        ("https://wallet.example.com/?a=b", None, false, "baseUrl"),
        ("not a url", None, false, "baseUrl"),
        ("https://wallet.example.com", Some(999), false, "timeoutMs"),
        ("https://wallet.example.com", Some(30_001), true, "timeoutMs"),
    ];
    for (base_url, timeout_ms, production, field) in rows {
        let mut store = MockWalletAdapterStore::new();
        store.expect_find_wallet_adapter().never();
        store.expect_save_wallet_adapter().never();
        let request = WalletAdapterChange {
            timeout_ms,
            ..change(base_url)
        };
        let error = service(store, production)
            .set_wallet_adapter(&caller(), request)
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Invalid { field: f, .. } if f == field),
            "{base_url} {timeout_ms:?}: {error:?}"
        );
    }
}

#[tokio::test]
async fn outside_production_plain_http_and_local_addresses_are_allowed() {
    for base_url in ["http://wallet.staging.example.com", "http://127.0.0.1:8089"] {
        let (store, saved) = store_with(None);
        let result = service(store, false)
            .set_wallet_adapter(&caller(), change(base_url))
            .await;
        assert!(result.is_ok(), "{base_url}");
        assert_eq!(saved.lock().expect("lock")[0].base_url.as_str(), base_url);
    }
}

#[tokio::test]
async fn a_lost_race_is_retried_on_the_new_state() {
    let mut store = MockWalletAdapterStore::new();
    let mut sequence = mockall::Sequence::new();
    store
        .expect_find_wallet_adapter()
        .times(1)
        .in_sequence(&mut sequence)
        .returning(|_| Ok(None));
    store
        .expect_save_wallet_adapter()
        .times(1)
        .in_sequence(&mut sequence)
        .withf(|_, expected| expected.is_none())
        .returning(|_, _| Ok(false));
    store
        .expect_find_wallet_adapter()
        .times(1)
        .in_sequence(&mut sequence)
        .returning(|_| Ok(Some(stored(1))));
    store
        .expect_save_wallet_adapter()
        .times(1)
        .in_sequence(&mut sequence)
        .returning(|config, expected| {
            assert_eq!(expected, Some(1), "saved over the revision it read");
            assert_eq!(
                config.secrets,
                AdapterSecrets::new(secret(1)),
                "the stored secret is kept"
            );
            Ok(true)
        });
    let result = service(store, true)
        .set_wallet_adapter(&caller(), change("https://wallet.example.com"))
        .await
        .expect("saved");
    assert!(!result.created, "the other request created it");
    assert_eq!(result.new_secret, None, "only the winner's secret exists");
}

#[tokio::test]
async fn losing_every_race_is_a_conflict() {
    let mut store = MockWalletAdapterStore::new();
    store.expect_find_wallet_adapter().returning(|_| Ok(Some(stored(1))));
    store.expect_save_wallet_adapter().times(3).returning(|_, _| Ok(false));
    let error = service(store, true)
        .set_wallet_adapter(&caller(), change("https://wallet.example.com"))
        .await
        .expect_err("conflict");
    assert!(matches!(
        error,
        AppError::Conflict {
            code: ProblemCode::ConcurrentChange,
            ..
        }
    ));
}

#[tokio::test]
async fn reading_names_the_callers_operator_and_a_missing_one_is_not_found() {
    let mut store = MockWalletAdapterStore::new();
    store
        .expect_find_wallet_adapter()
        .withf(|operator| *operator == OPERATOR)
        .returning(|_| Ok(None));
    let error = service(store, true).wallet_adapter(&caller()).await.expect_err("none");
    assert!(matches!(error, AppError::NotFound("wallet adapter")));
    let mut failing = MockWalletAdapterStore::new();
    failing
        .expect_find_wallet_adapter()
        .returning(|_| Err(StoreError::Unavailable("down".into())));
    let error = service(failing, true)
        .wallet_adapter(&caller())
        .await
        .expect_err("down");
    assert!(matches!(error, AppError::StoreUnavailable(_)));
}
