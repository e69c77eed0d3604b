//! `GET/PUT /api/operator/wallet-adapter`: setting the operator's wallet adapter, the
//! signing secret shown once, rotation with an overlap, validation, and tenancy.

use std::sync::Arc;

use opinion::system_ports::{OsRandom, SystemClock};
use opinion_app::wallet::ports::{WalletAdapterStore, WalletGateway};
use opinion_core::{MarketId, TradeId};
use opinion_market::Outcome;
use opinion_store_pg::{DataKey, PgStore};
use opinion_testkit::{FakeWallet, SignatureCheck};
use opinion_wallet::{Amount, Classification, FlowMetadata, RefusalCode, ShareCount, TradeMetadata, WalletMutation};
use opinion_wallet_http::{AddressPolicy, HttpWalletGateway};
use opinion_webhook::SigningSecret;
use reqwest::{Method, Response};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::helpers::{TEST_DATA_KEY, TestApp, assert_problem, json_with_status, spawn_app};

const PATH: &str = "/api/operator/wallet-adapter";

async fn put(app: &TestApp, key: &str, body: &Value) -> Response {
    app.request(Method::PUT, PATH, Some(key))
        .json(body)
        .send()
        .await
        .expect("request")
}

fn time_of(body: &Value, field: &str) -> OffsetDateTime {
    let text = body[field].as_str().unwrap_or_else(|| panic!("{field} in {body}"));
    OffsetDateTime::parse(text, &Rfc3339).unwrap_or_else(|error| panic!("{field}: {error}"))
}

fn secret_of(body: &Value) -> String {
    let secret = body["signingSecret"].as_str().expect("signingSecret").to_owned();
    assert!(secret.parse::<SigningSecret>().is_ok(), "{secret}");
    secret
}

fn hint_matches(body: &Value, secret: &str) -> bool {
    let hint = body["secretHint"].as_str().expect("secretHint");
    hint.ends_with('…') && secret.starts_with(hint.trim_end_matches('…'))
}

#[tokio::test]
async fn the_first_put_creates_it_and_shows_the_secret_once() {
    let app = spawn_app().await;
    let key = app.key_with(&["wallet_adapter:read", "wallet_adapter:write"]).await;
    assert_problem(app.get(PATH, &key).await, 404, "not_found").await;

    let created = json_with_status(
        put(&app, &key, &json!({"baseUrl": "http://127.0.0.1:9/Opinion/"})).await,
        201,
    )
    .await;
    let secret = secret_of(&created);
    assert_eq!(created["baseUrl"], "http://127.0.0.1:9/Opinion");
    assert_eq!(created["timeoutMs"], 10_000);
    assert_eq!(created["previousSecretExpiresAt"], Value::Null);
    assert!(hint_matches(&created, &secret), "{created}");
    assert_eq!(time_of(&created, "createdAt"), time_of(&created, "updatedAt"));

    let read = json_with_status(app.get(PATH, &key).await, 200).await;
    assert_eq!(read.get("signingSecret"), None);
    assert!(!read.to_string().contains(&secret));
    for field in [
        "baseUrl",
        "timeoutMs",
        "secretHint",
        "previousSecretExpiresAt",
        "createdAt",
        "updatedAt",
    ] {
        assert_eq!(read[field], created[field], "{field}");
    }
}

#[tokio::test]
async fn a_later_put_changes_the_settings_and_keeps_the_secret() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let created = json_with_status(
        put(&app, &key, &json!({"baseUrl": "https://wallet.example.com"})).await,
        201,
    )
    .await;
    let secret = secret_of(&created);

    let changed = json_with_status(
        put(
            &app,
            &key,
            &json!({"baseUrl": "https://wallet2.example.com/v", "timeoutMs": 2500, "rotateSecret": false}),
        )
        .await,
        200,
    )
    .await;
    assert_eq!(changed.get("signingSecret"), None);
    assert_eq!(changed["baseUrl"], "https://wallet2.example.com/v");
    assert_eq!(changed["timeoutMs"], 2500);
    assert!(hint_matches(&changed, &secret), "{changed}");
    assert_eq!(changed["createdAt"], created["createdAt"]);
    assert!(time_of(&changed, "updatedAt") >= time_of(&created, "updatedAt"));
    let read = json_with_status(app.get(PATH, &key).await, 200).await;
    assert_eq!(
        (read["baseUrl"].clone(), read["timeoutMs"].clone()),
        (changed["baseUrl"].clone(), changed["timeoutMs"].clone())
    );
}

#[tokio::test]
async fn rotation_shows_the_new_secret_once_and_names_the_overlap_end() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let created = json_with_status(
        put(&app, &key, &json!({"baseUrl": "https://wallet.example.com"})).await,
        201,
    )
    .await;
    let first = secret_of(&created);

    let rotated = json_with_status(
        put(
            &app,
            &key,
            &json!({"baseUrl": "https://wallet.example.com", "rotateSecret": true}),
        )
        .await,
        200,
    )
    .await;
    let second = secret_of(&rotated);
    assert_ne!(first, second);
    assert!(hint_matches(&rotated, &second), "{rotated}");
    let overlap_end = time_of(&rotated, "previousSecretExpiresAt");
    let expected = time_of(&rotated, "updatedAt") + time::Duration::hours(24);
    assert!(
        overlap_end <= expected && expected - overlap_end < time::Duration::seconds(1),
        "{overlap_end} vs {expected}"
    );

    let read = json_with_status(app.get(PATH, &key).await, 200).await;
    assert_eq!(read["previousSecretExpiresAt"], rotated["previousSecretExpiresAt"]);
    assert!(!read.to_string().contains(&second) && !read.to_string().contains(&first));
}

#[tokio::test]
async fn bad_input_is_a_400_naming_the_field_and_writes_nothing() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let rows = [
        (json!({"baseUrl": "wallet.example.com"}), "baseUrl"),
        (json!({"baseUrl": "ftp://wallet.example.com"}), "baseUrl"),
        (json!({"baseUrl": "https://user:pw@wallet.example.com"}), "baseUrl"),
        (json!({"baseUrl": "https://wallet.example.com/?env=live"}), "baseUrl"),
        (
            json!({"baseUrl": "https://wallet.example.com", "timeoutMs": 999}),
            "timeoutMs",
        ),
        (
            json!({"baseUrl": "https://wallet.example.com", "timeoutMs": 30_001}),
            "timeoutMs",
        ),
        (
            json!({"baseUrl": "https://wallet.example.com", "timeoutMs": -5}),
            "timeoutMs",
        ),
    ];
    for (body, field) in rows {
        let problem = assert_problem(put(&app, &key, &body).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{body}");
    }
    for body in [
        json!({}),
        json!({"baseUrl": 5}),
        json!({"baseUrl": "https://wallet.example.com", "timeoutMs": "fast"}),
        json!({"baseUrl": "https://wallet.example.com", "signingSecret": "whsec_mine"}),
    ] {
        assert_problem(put(&app, &key, &body).await, 400, "invalid_body").await;
    }
    assert_problem(app.get(PATH, &key).await, 404, "not_found").await;
}

#[tokio::test]
async fn another_operator_never_sees_it() {
    let app = spawn_app().await;
    let other = app.new_operator("Other operator").await;
    let mine = json_with_status(
        put(&app, &app.operator.key, &json!({"baseUrl": "https://mine.example.com"})).await,
        201,
    )
    .await;
    assert_problem(app.get(PATH, &other.key).await, 404, "not_found").await;

    let theirs = json_with_status(
        put(&app, &other.key, &json!({"baseUrl": "https://theirs.example.com"})).await,
        201,
    )
    .await;
    assert_ne!(secret_of(&theirs), secret_of(&mine));
    let read = json_with_status(app.get(PATH, &app.operator.key).await, 200).await;
    assert_eq!(read["baseUrl"], "https://mine.example.com");
    assert_eq!(read["secretHint"], mine["secretHint"]);
}

/// The whole chain: the secret shown once is the one the platform's client signs with
/// when calling the configured wallet, and after a rotation both the old and the new one
/// verify during the overlap.
#[tokio::test]
async fn the_secret_shown_once_signs_the_calls_to_the_configured_wallet() {
    let app = spawn_app().await;
    let wallet = FakeWallet::start().await;
    wallet.set_balance("player-1", 1_000);
    let created = json_with_status(
        put(&app, &app.operator.key, &json!({"baseUrl": wallet.url()})).await,
        201,
    )
    .await;
    let first = secret_of(&created);
    let store = PgStore::connect(app.db.url(), 2)
        .await
        .expect("store")
        .with_data_key(DataKey::derive(TEST_DATA_KEY.as_bytes()).expect("data key"));
    let gateway = HttpWalletGateway::new(Arc::new(SystemClock), Arc::new(OsRandom), AddressPolicy::Any);
    let call = |trade: u128| {
        let (store, gateway) = (&store, &gateway);
        async move {
            let target = store
                .find_wallet_target(app.operator.id)
                .await
                .expect("read")
                .expect("configured");
            gateway.mutate(&target, &sell(trade)).await.classification
        }
    };

    wallet.set_secret(&first);
    assert!(matches!(call(1).await, Classification::Applied { balance: 1_010, .. }));
    let rotated = json_with_status(
        put(
            &app,
            &app.operator.key,
            &json!({"baseUrl": wallet.url(), "rotateSecret": true}),
        )
        .await,
        200,
    )
    .await;
    let second = secret_of(&rotated);
    wallet.set_secret(&second);
    assert!(matches!(call(2).await, Classification::Applied { balance: 1_020, .. }));
    wallet.set_secret(&first);
    assert!(matches!(call(3).await, Classification::Applied { balance: 1_030, .. }));
    wallet.set_secret("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
    assert_eq!(
        call(4).await,
        Classification::Rejected {
            code: RefusalCode::InvalidSignature
        }
    );
    assert!(
        wallet
            .ledger()
            .iter()
            .take(3)
            .all(|entry| entry.signature == SignatureCheck::Valid)
    );
}

fn sell(trade: u128) -> WalletMutation {
    WalletMutation::new(
        "player-1",
        Amount::new(10).expect("amount"),
        "IDR".parse().expect("currency"),
        FlowMetadata::Sell(TradeMetadata {
            market_id: MarketId::from_u128(1),
            trade_id: TradeId::from_u128(trade),
            outcome: Outcome::No,
            shares: ShareCount::new(20).expect("shares"),
        }),
    )
    .expect("mutation")
}
