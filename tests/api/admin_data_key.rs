//! `opinion admin data-key`: a rotation of the data key over a database holding webhook
//! endpoints (current and previous secrets) and a wallet adapter (current and previous
//! secrets), interrupted and resumed; afterwards an instance with only the new key opens
//! and signs with them, one with only the old key opens nothing, and no webhook secret is
//! left in clear.

use diesel::QueryableByName;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion::config::Config;
use opinion::startup::{self, Application, Services};
use opinion_testkit::WebhookSink;
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_cli::opinion_with_env;
use crate::helpers::{TEST_DATA_KEY, TestApp, json_with_status, spawn_app, test_config};
use crate::webhooks_support::{DISABLED, emit_events, register, verifies_now};

const NEW_KEY: &str = "the new data key, thirty-two bytes or more";
const WALLET: &str = "/api/operator/wallet-adapter";

/// Starts an instance over the app's database sealing with `data_key` (and `previous`).
async fn instance(app: &TestApp, data_key: &str, previous: Option<&str>) -> (String, Services) {
    let config = Config {
        data_key: Some(data_key.into()),
        data_key_previous: previous.map(str::to_owned),
        ..test_config(app.db.url(), 0)
    };
    let keys = opinion::secrets::keys(&config).expect("keys");
    let services = startup::services(&config, app.db.url(), &keys).await.expect("wiring");
    let application = Application::bind(&config, services.clone()).expect("bind");
    let address = format!("http://127.0.0.1:{}", application.port());
    tokio::spawn(application.run());
    (address, services)
}

/// `opinion admin data-key <args>` with the new key current and the old one previous.
fn data_key(app: &TestApp, args: &[&str]) -> Value {
    let mut all = vec!["admin", "data-key"];
    all.extend_from_slice(args);
    let env = [
        ("OPINION_DATA_KEY".to_owned(), NEW_KEY.to_owned()),
        ("OPINION_DATA_KEY_PREVIOUS".to_owned(), TEST_DATA_KEY.to_owned()),
    ];
    opinion_with_env(app.db.url(), &all, &env)
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    let mut conn = AsyncPgConnection::establish(app.db.url()).await.expect("connect");
    let found: Count = diesel::sql_query(sql).get_result(&mut conn).await.expect("count");
    found.count
}

#[tokio::test]
async fn a_rotation_reseals_every_secret_resumably_and_only_the_new_key_opens_them_after() {
    let app = spawn_app().await;
    let sink = WebhookSink::start().await;
    let key = app.operator.key.clone();
    let endpoint = register(&app, &app.operator, &sink.url("rotated"), &[DISABLED]).await;
    let path = format!("/api/operator/webhooks/endpoints/{}", endpoint.id);
    let rotated = json_with_status(app.patch(&path, &key, &json!({"rotateSecret": true})).await, 200).await;
    let secret = rotated["secret"].as_str().expect("the new secret").to_owned();
    let wallet = json!({"baseUrl": "https://wallet.example.com/v", "rotateSecret": true});
    for status in [201, 200] {
        let answer = app
            .request(Method::PUT, WALLET, Some(&key))
            .json(&wallet)
            .send()
            .await
            .expect("put");
        json_with_status(answer, status).await;
    }
    emit_events(&app, 1).await;
    let clear =
        "SELECT count(*) AS count FROM webhook_endpoints WHERE secret IS NOT NULL OR previous_secret IS NOT NULL";
    assert_eq!(count(&app, clear).await, 0, "webhook secrets are sealed when written");

    // endpoint (2) + throwaway endpoint (1) + wallet adapter (2) = 5 sealed values.
    let before = data_key(&app, &["status"]);
    assert_eq!(before["remaining"], 5, "{before}");
    assert_eq!(before["clearWebhookSecrets"], 0);
    let interrupted = data_key(&app, &["rotate", "--batch-size", "1", "--max-batches", "2"]);
    assert_eq!(interrupted["complete"], false, "{interrupted}");
    let (done, left) = (interrupted["resealed"].as_u64(), interrupted["remaining"].as_u64());
    let (done, left) = (done.expect("resealed"), left.expect("remaining"));
    assert!(done >= 1 && done + left == 5, "{interrupted}");
    assert_eq!(data_key(&app, &["status"])["remaining"], left);
    let finished = data_key(&app, &["rotate", "--batch-size", "2"]);
    assert_eq!(finished["complete"], true, "{finished}");
    assert_eq!(finished["resealed"], left);
    let again = data_key(&app, &["rotate"]);
    assert_eq!(
        (again["resealed"].clone(), again["remaining"].clone()),
        (json!(0), json!(0))
    );
    let after = data_key(&app, &["status"]);
    assert_eq!(after["remaining"], 0, "{after}");
    assert_eq!(count(&app, clear).await, 0);

    let (new_only, services) = instance(&app, NEW_KEY, None).await;
    let read = app
        .client
        .get(format!("{new_only}{WALLET}"))
        .bearer_auth(&key)
        .send()
        .await
        .expect("get");
    json_with_status(read, 200).await;
    services.webhooks.deliver_due(10).await.expect("deliver");
    let received = sink.received();
    assert_eq!(received.len(), 1, "the event was delivered by the new-key instance");
    assert!(
        verifies_now(&secret, &received[0]),
        "signed with the endpoint's own secret"
    );
    assert!(
        verifies_now(&endpoint.secret, &received[0]),
        "and its previous one, in the overlap"
    );

    let (old_only, _) = instance(&app, TEST_DATA_KEY, None).await;
    let read = app
        .client
        .get(format!("{old_only}{WALLET}"))
        .bearer_auth(&key)
        .send()
        .await
        .expect("get");
    assert!(
        read.status().is_server_error(),
        "the old key opens nothing: {}",
        read.status()
    );
    let endpoints = "/api/operator/webhooks/endpoints";
    let read = app
        .client
        .get(format!("{old_only}{endpoints}"))
        .bearer_auth(&key)
        .send()
        .await
        .expect("get");
    assert!(read.status().is_server_error(), "{}", read.status());
}
