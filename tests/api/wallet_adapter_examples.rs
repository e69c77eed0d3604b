//! The wallet adapter examples in examples/wallet-adapters/ pass the full-contract wallet
//! test, both products' sections, and keep their word across a restart: the same key
//! gets the same answer and the balance is where it was.

use std::path::Path;

use reqwest::Method;
use serde_json::{Value, json};
use standardwebhooks::Webhook;
use time::OffsetDateTime;

use crate::example_process::{ExampleProcess, examples};
use crate::helpers::{TestApp, json_with_status, spawn_app};

const TEST_PATH: &str = "/api/operator/wallet-adapter/test";
const ADAPTER_PATH: &str = "/api/operator/wallet-adapter";
const TEST_USER: &str = "opinion-wallet-test";

/// The wallet test's two players: Opinion's in the operator's currency, the flight
/// product's in IDR.
const PLAYERS: &str = "opinion-wallet-test=USD:10000 opinion-wallet-test-idr=IDR:100000";

#[tokio::test]
async fn the_python_wallet_adapter_passes_the_full_contract_test_and_survives_a_restart() {
    check("python3", "python/adapter.py", "WALLET_DB", "wallet.sqlite3").await;
}

#[tokio::test]
async fn the_node_wallet_adapter_passes_the_full_contract_test_and_survives_a_restart() {
    check("node", "node/adapter.mjs", "WALLET_JOURNAL", "wallet.jsonl").await;
}

async fn check(program: &str, script: &str, storage_variable: &str, storage_file: &str) {
    let app = spawn_app().await;
    // As an operator does: configure first, then deploy the adapter with the secret shown.
    let configured = configure(&app, "http://127.0.0.1:9", 201).await;
    let secret = configured["signingSecret"].as_str().expect("secret").to_owned();
    let folder = tempfile::tempdir().expect("a temporary folder");
    let storage = folder.path().join(storage_file);
    let script = examples("wallet-adapters").join(script);
    let start = || start(program, &script, &secret, storage_variable, &storage);

    let mut adapter = start();
    let port = adapter.listening_port().await;
    configure(&app, &format!("http://127.0.0.1:{port}"), 200).await;
    let report = json_with_status(app.post(TEST_PATH, &app.operator.key, &json!({})).await, 200).await;
    assert_eq!(failed(&report["checks"]), Vec::<String>::new(), "{report:#}");
    assert_eq!(failed(&report["flight"]["checks"]), Vec::<String>::new(), "{report:#}");
    assert_eq!(
        report["products"],
        json!({"opinion": "passed", "flight": "passed"}),
        "{report:#}"
    );

    let (key, body, first_answer) = first_debit(&report);
    let balance = read_balance(port, &secret).await;
    adapter.kill();

    let restarted = start();
    let port = restarted.listening_port().await;
    let (status, answer) = signed(port, "/v1/mutations", &secret, &key, &body).await;
    assert_eq!(
        (status, answer),
        (200, first_answer),
        "the first answer again after a restart"
    );
    assert_eq!(
        read_balance(port, &secret).await,
        balance,
        "nothing applied twice, nothing lost"
    );
}

fn start(program: &str, script: &Path, secret: &str, storage_variable: &str, storage: &Path) -> ExampleProcess {
    let storage = storage.to_str().expect("a UTF-8 path");
    ExampleProcess::start(
        program,
        script,
        &[
            ("WALLET_SECRET", secret),
            ("PORT", "0"),
            (storage_variable, storage),
            ("PLAYERS", PLAYERS),
        ],
    )
}

async fn configure(app: &TestApp, base_url: &str, status: u16) -> Value {
    let response = app
        .request(Method::PUT, ADAPTER_PATH, Some(&app.operator.key))
        .json(&json!({"baseUrl": base_url, "timeoutMs": 10_000}))
        .send()
        .await
        .expect("put");
    json_with_status(response, status).await
}

fn failed(checks: &Value) -> Vec<String> {
    checks
        .as_array()
        .expect("checks")
        .iter()
        .filter(|check| check["verdict"] != "passed")
        .map(|check| format!("{}: {}", check["name"], check["problem"]))
        .collect()
}

/// The `debit` check's first call: its key, the exact body sent and the answer's body.
fn first_debit(report: &Value) -> (String, String, Value) {
    let check = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|check| check["name"] == "debit")
        .expect("a debit check");
    let exchange = &check["exchanges"][0];
    let received = exchange["received"].as_str().expect("received");
    let answer = &received[received.find('{').expect("a JSON answer")..];
    (
        exchange["idempotencyKey"].as_str().expect("key").to_owned(),
        exchange["sent"].as_str().expect("sent").to_owned(),
        serde_json::from_str(answer).expect("the answer's JSON"),
    )
}

async fn read_balance(port: u16, secret: &str) -> Value {
    let body = json!({"externalUserId": TEST_USER, "requestedAt": "2026-11-25T10:00:00.000Z"}).to_string();
    let (status, answer) = signed(port, "/v1/balance", secret, "bal_example_test", &body).await;
    assert_eq!(status, 200, "{answer}");
    answer["balance"].clone()
}

/// Posts `body` to the adapter, signed as the platform signs it.
async fn signed(port: u16, path: &str, secret: &str, id: &str, body: &str) -> (u16, Value) {
    let timestamp = OffsetDateTime::now_utc().unix_timestamp();
    let signature = Webhook::new(secret)
        .expect("a whsec_ secret")
        .sign(id, timestamp, body.as_bytes())
        .expect("signable");
    let response = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{port}{path}"))
        .header("content-type", "application/json")
        .header("idempotency-key", id)
        .header("webhook-id", id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body.to_owned())
        .send()
        .await
        .expect("the adapter answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON answer"))
}
