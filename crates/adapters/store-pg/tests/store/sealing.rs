//! Secrets at rest across tables: webhook signing secrets sealed (and clear ones left by
//! an earlier release sealed by the store), and a data key rotation re-sealing every kind
//! of sealed value in resumable batches, after which only the new key opens them.

use opinion_app::flight::office::proof_ports::{ProofStore, ReportProofRecord};
use opinion_app::flight::ports::FlightStore;
use opinion_app::model::{EndpointSecrets, WalletAdapterConfig, WebhookEndpoint};
use opinion_app::ports::StoreError;
use opinion_app::wallet::ports::WalletAdapterStore;
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::{SettlementReportId, WebhookEndpointId};
use opinion_proof::{PlayerKey, TreeHash};
use opinion_store_pg::{DataKey, PgStore, ResealCursor};
use opinion_testkit::TestDatabase;
use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout, RetiringSecret};
use opinion_webhook::{AttemptTimeout, EventType, MaxAttempts, SigningSecret, Subscription};
use time::Duration;

use crate::fixtures::*;
use crate::flight::{CHAIN, chain, count, terminal};

const ENDPOINT: WebhookEndpointId = WebhookEndpointId::from_u128(7);
const REPORT: SettlementReportId = SettlementReportId::from_u128(70);

fn key(byte: u8) -> DataKey {
    DataKey::derive(&[byte; 32]).expect("data key")
}

fn secret(byte: u8) -> SigningSecret {
    SigningSecret::from_random_bytes(&[byte; 32]).expect("secret")
}

fn endpoint() -> WebhookEndpoint {
    WebhookEndpoint {
        id: ENDPOINT,
        operator_id: operator_id(1),
        url: "https://hooks.example.com/".into(),
        description: None,
        subscription: Subscription::new([EventType::MarketResolved]).expect("subscription"),
        enabled: true,
        disabled_reason: None,
        rate_limit: None,
        max_attempts: MaxAttempts::default(),
        timeout: AttemptTimeout::default(),
        secrets: EndpointSecrets {
            current: secret(11),
            previous: Some(secret(12)),
            previous_expires_at: Some(T0 + Duration::hours(24)),
        },
        failing_since: None,
        created_at: T0,
        updated_at: T0,
    }
}

fn adapter() -> WalletAdapterConfig {
    WalletAdapterConfig {
        operator_id: operator_id(1),
        base_url: AdapterBaseUrl::parse("https://wallet.example.com/opinion", true).expect("url"),
        timeout: AdapterTimeout::from_millis(7_500).expect("timeout"),
        secrets: AdapterSecrets::restore(
            secret(21),
            Some(RetiringSecret {
                secret: secret(22),
                signs_until: (T0 + Duration::hours(24)).unix_timestamp(),
            }),
        ),
        created_at: T0,
        updated_at: T0,
        revision: 1,
    }
}

fn proof() -> ReportProofRecord {
    ReportProofRecord {
        operator_id: operator_id(1),
        report_id: REPORT,
        merkle_root: TreeHash::from_hex(&"ab".repeat(32)).expect("root"),
        leaf_count: 3,
        player_key: PlayerKey::from_hex(&"cd".repeat(32)).expect("player key"),
        exchange_answer: None,
    }
}

async fn connected(db: &TestDatabase, key: DataKey) -> PgStore {
    PgStore::connect(db.url(), 2).await.expect("connect").with_data_key(key)
}

/// Every kind of sealed value, written under `key(1)`: six values in all.
async fn every_kind_sealed_by_key_one() -> TestDatabase {
    let (db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    store.insert_endpoint(&endpoint()).await.expect("endpoint");
    assert!(store.save_wallet_adapter(&adapter(), None).await.expect("adapter"));
    store.create_chain(&chain(), &terminal()).await.expect("chain");
    store.store_report_proof(&proof()).await.expect("proof");
    db
}

/// Whether `store` opens every value `every_kind_sealed_by_key_one` wrote, as written.
async fn opens_every_kind(store: &PgStore) -> bool {
    let endpoint = store.find_endpoint(operator_id(1), ENDPOINT).await;
    let adapter = store.find_wallet_adapter(operator_id(1)).await;
    let seed = store.terminal_seed(CHAIN).await;
    let proof = store.report_proof(operator_id(1), REPORT).await;
    match (endpoint, adapter, seed, proof) {
        (Ok(endpoint), Ok(adapter), Ok(seed), Ok(proof)) => {
            assert_eq!(endpoint.map(|e| e.secrets), Some(self::endpoint().secrets));
            assert_eq!(adapter, Some(self::adapter()));
            assert_eq!(seed, terminal());
            let opened = proof.expect("proof").player_key.to_hex();
            assert_eq!(opened, self::proof().player_key.to_hex());
            true
        }
        (endpoint, adapter, seed, proof) => {
            for failure in [endpoint.err(), adapter.err(), seed.err(), proof.err()]
                .into_iter()
                .flatten()
            {
                assert!(matches!(failure, StoreError::Unavailable(_)), "{failure:?}");
            }
            false
        }
    }
}

#[tokio::test]
async fn webhook_secrets_are_sealed_and_clear_ones_from_an_earlier_release_are_sealed_by_the_store() {
    let (db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    store.insert_endpoint(&endpoint()).await.expect("endpoint");
    let clear =
        "SELECT count(*) AS count FROM webhook_endpoints WHERE secret IS NOT NULL OR previous_secret IS NOT NULL";
    assert_eq!(count(&db, clear).await, 0);
    let sealed = "SELECT count(*) AS count FROM webhook_endpoints \
                  WHERE secret_sealed LIKE 'v2.%' AND previous_secret_sealed LIKE 'v2.%'";
    assert_eq!(count(&db, sealed).await, 1);

    // A row as the release before sealing wrote it.
    let (current, previous) = (secret(11).reveal(), secret(12).reveal());
    count(
        &db,
        &format!(
            "WITH changed AS (UPDATE webhook_endpoints SET secret = '{current}', secret_sealed = NULL, \
             previous_secret = '{previous}', previous_secret_sealed = NULL RETURNING 1) \
             SELECT count(*) AS count FROM changed"
        ),
    )
    .await;
    assert_eq!(count(&db, clear).await, 1);
    let read = store
        .find_endpoint(operator_id(1), ENDPOINT)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(
        read.secrets,
        endpoint().secrets,
        "the read path takes clear values meanwhile"
    );
    assert_eq!(store.sealing_status().await.expect("status").clear_webhook_secrets, 2);

    assert_eq!(store.seal_clear_webhook_secrets(100).await.expect("sealed"), 1);
    assert_eq!(store.seal_clear_webhook_secrets(100).await.expect("nothing left"), 0);
    assert_eq!(count(&db, clear).await, 0);
    assert_eq!(count(&db, sealed).await, 1);
    let read = store
        .find_endpoint(operator_id(1), ENDPOINT)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(read.secrets, endpoint().secrets);
    let other_key = connected(&db, key(2)).await;
    assert!(other_key.find_endpoint(operator_id(1), ENDPOINT).await.is_err());
}

#[tokio::test]
async fn a_rotation_reseals_every_kind_resumably_and_then_only_the_new_key_opens_them() {
    let db = every_kind_sealed_by_key_one().await;
    let rotating = connected(&db, key(2).accepting_previous(key(1))).await;
    let before = rotating.sealing_status().await.expect("status");
    assert_eq!(before.key_id, key(2).id());
    assert_eq!(before.previous_key_id.as_deref(), Some(key(1).id()));
    assert_eq!(before.remaining(), 6);
    assert!(
        before
            .columns
            .iter()
            .all(|c| c.under_current_key == 0 && c.under_other_keys == 0)
    );
    assert!(opens_every_kind(&rotating).await, "both keys open during the rotation");

    // Interrupted once two values are re-sealed, in batches of one (a batch that finds
    // its column finished re-seals nothing and moves on).
    let mut cursor = ResealCursor::default();
    let mut resealed = 0;
    while resealed < 2 {
        let batch = rotating
            .reseal_next(&mut cursor, 1)
            .await
            .expect("batch")
            .expect("work");
        assert!(batch.resealed <= 1 && batch.unopenable == 0);
        resealed += batch.resealed;
    }
    assert_eq!(rotating.sealing_status().await.expect("status").remaining(), 4);
    assert!(!opens_every_kind(&connected(&db, key(2)).await).await, "not done yet");

    // A second run finishes the job and a third finds nothing to do.
    for expected in [4, 0] {
        let mut cursor = ResealCursor::default();
        let mut resealed = 0;
        while let Some(batch) = rotating.reseal_next(&mut cursor, 2).await.expect("batch") {
            assert_eq!(batch.unopenable, 0);
            resealed += batch.resealed;
        }
        assert!(cursor.finished());
        assert_eq!(resealed, expected);
    }
    let after = rotating.sealing_status().await.expect("status");
    assert_eq!(after.remaining(), 0);
    let under_new: u64 = after.columns.iter().map(|c| c.under_current_key).sum();
    assert_eq!(under_new, 6);

    assert!(
        opens_every_kind(&connected(&db, key(2)).await).await,
        "the new key alone opens all"
    );
    assert!(
        !opens_every_kind(&connected(&db, key(1)).await).await,
        "the old key opens nothing"
    );
    let old = connected(&db, key(1)).await;
    assert!(old.find_endpoint(operator_id(1), ENDPOINT).await.is_err());
    assert!(old.find_wallet_adapter(operator_id(1)).await.is_err());
    assert!(old.terminal_seed(CHAIN).await.is_err());
    assert!(old.report_proof(operator_id(1), REPORT).await.is_err());
}

#[tokio::test]
async fn values_no_configured_key_opens_are_counted_and_left_alone() {
    let db = every_kind_sealed_by_key_one().await;
    let unrelated = connected(&db, key(3).accepting_previous(key(4))).await;
    let status = unrelated.sealing_status().await.expect("status");
    let other: u64 = status.columns.iter().map(|c| c.under_other_keys).sum();
    assert_eq!((other, status.remaining()), (6, 6));
    let mut cursor = ResealCursor::default();
    let (mut resealed, mut unopenable) = (0, 0);
    while let Some(batch) = unrelated.reseal_next(&mut cursor, 3).await.expect("batch") {
        resealed += batch.resealed;
        unopenable += batch.unopenable;
    }
    assert_eq!((resealed, unopenable), (0, 6));
    assert!(
        opens_every_kind(&connected(&db, key(1)).await).await,
        "nothing was damaged"
    );
}
