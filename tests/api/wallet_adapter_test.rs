//! `POST /api/operator/wallet-adapter/test`: the full-contract test passes against the
//! simulated wallet and a contract-abiding wallet, and each deliberately broken wallet
//! fails exactly the checks it should.

use std::collections::BTreeSet;
use std::time::Duration;

use opinion_testkit::{Breakage, FakeWallet, Fault};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::simulator_support::{connect, simulated_user};

const TEST_PATH: &str = "/api/operator/wallet-adapter/test";
const TEST_USER: &str = "opinion-wallet-test";

async fn run_test(app: &TestApp) -> Value {
    json_with_status(app.post(TEST_PATH, &app.operator.key, &json!({})).await, 200).await
}

fn failed(report: &Value) -> BTreeSet<String> {
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|check| check["verdict"] != "passed")
        .map(|check| check["name"].as_str().expect("name").to_owned())
        .collect()
}

/// Configures `wallet` as the operator's adapter with `timeout_ms`, funds the test
/// player and runs the test.
async fn test_against(app: &TestApp, wallet: &FakeWallet, timeout_ms: i64) -> Value {
    let body = json!({"baseUrl": wallet.url(), "timeoutMs": timeout_ms});
    let saved = json_with_status(
        app.request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
            .json(&body)
            .send()
            .await
            .expect("put"),
        201,
    )
    .await;
    wallet.set_secret(saved["signingSecret"].as_str().expect("secret"));
    wallet.set_balance(TEST_USER, 10_000);
    run_test(app).await
}

fn metadata_checks() -> BTreeSet<String> {
    [
        "metadata_buy_market_id",
        "metadata_buy_trade_id",
        "metadata_buy_outcome",
        "metadata_buy_shares",
        "metadata_sell_market_id",
        "metadata_sell_trade_id",
        "metadata_sell_outcome",
        "metadata_sell_shares",
        "metadata_buy_compensation_market_id",
        "metadata_buy_compensation_trade_id",
        "metadata_buy_compensation_compensated_operation_id",
        "metadata_redemption_market_id",
        "metadata_redemption_redemption_id",
        "metadata_redemption_resolution",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect()
}

#[tokio::test]
async fn the_simulated_wallet_passes_every_check_and_the_test_nets_to_zero() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    simulated_user(&app, &key, TEST_USER, 10_000).await;
    connect(&app, &key, 10_000).await;
    let report = run_test(&app).await;
    assert_eq!(failed(&report), BTreeSet::new(), "{report:#}");
    assert_eq!(report["verdict"], "passed");
    assert_eq!(report["netChange"], "0");
    assert!(
        report["cleanup"].as_array().is_some_and(|c| c.len() == 1),
        "only the end balance read"
    );
    let names: BTreeSet<String> = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|check| check["name"].as_str().expect("name").to_owned())
        .collect();
    assert!(metadata_checks().is_subset(&names));
    for name in [
        "balance_read",
        "debit",
        "repeat_same_key",
        "same_key_other_payload",
        "insufficient_funds",
        "unknown_user",
        "signature_wrong_secret",
        "signature_stale_timestamp",
        "timing",
    ] {
        assert!(names.contains(name), "{name}");
    }
    assert!(!report.to_string().contains("lookup"), "the test has no lookup step");
    let wallet = json_with_status(
        app.get(&format!("/api/operator/simulator/wallets/{TEST_USER}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(wallet["balance"], "10000", "{wallet}");
    let applied = wallet["log"]
        .as_array()
        .expect("log")
        .iter()
        .filter(|e| e["applied"] == true)
        .count();
    assert_eq!(applied, 4, "one debit and three credits moved money: {wallet:#}");
}

#[tokio::test]
async fn a_contract_abiding_wallet_passes() {
    let app = spawn_app().await;
    let wallet = FakeWallet::start_in("USD").await;
    let report = test_against(&app, &wallet, 10_000).await;
    assert_eq!(failed(&report), BTreeSet::new(), "{report:#}");
    assert_eq!(wallet.balance(TEST_USER), Some(10_000));
}

#[tokio::test]
async fn a_wallet_applying_a_repeated_key_twice_fails_only_the_repeat_check() {
    let app = spawn_app().await;
    let wallet = FakeWallet::start_in("USD").await;
    wallet.break_contract(Breakage::DoubleAppliesRepeats);
    let report = test_against(&app, &wallet, 10_000).await;
    assert_eq!(
        failed(&report),
        BTreeSet::from(["repeat_same_key".to_owned()]),
        "{report:#}"
    );
    let repeat = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "repeat_same_key")
        .expect("check");
    assert!(
        repeat["fix"].as_str().is_some_and(|fix| fix.contains("deduplicate")),
        "{repeat}"
    );
    assert_eq!(report["netChange"], "0", "the cleanup gave the second debit back");
    assert_eq!(wallet.balance(TEST_USER), Some(10_000));
}

#[tokio::test]
async fn a_wallet_ignoring_metadata_fails_exactly_the_metadata_checks() {
    let app = spawn_app().await;
    let wallet = FakeWallet::start_in("USD").await;
    wallet.break_contract(Breakage::IgnoresMetadata);
    let report = test_against(&app, &wallet, 10_000).await;
    assert_eq!(failed(&report), metadata_checks(), "{report:#}");
    assert_eq!(wallet.balance(TEST_USER), Some(10_000));
}

#[tokio::test]
async fn a_wallet_answering_200_to_insufficient_funds_fails_only_that_check() {
    let app = spawn_app().await;
    let wallet = FakeWallet::start_in("USD").await;
    wallet.break_contract(Breakage::AcceptsOverdraft);
    let report = test_against(&app, &wallet, 10_000).await;
    assert_eq!(
        failed(&report),
        BTreeSet::from(["insufficient_funds".to_owned()]),
        "{report:#}"
    );
}

#[tokio::test]
async fn a_slow_wallet_fails_only_the_timing_check() {
    let app = spawn_app().await;
    let wallet = FakeWallet::start_in("USD").await;
    wallet.fail_next(TEST_USER, Fault::SlowAnswer(Duration::from_millis(1_100)));
    let report = test_against(&app, &wallet, 2_000).await;
    assert_eq!(failed(&report), BTreeSet::from(["timing".to_owned()]), "{report:#}");
    let timing = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "timing")
        .expect("timing");
    assert!(
        timing["exchanges"][0]["elapsedMs"]
            .as_u64()
            .is_some_and(|ms| ms >= 1_100),
        "{timing}"
    );
}

#[tokio::test]
async fn the_test_needs_a_configured_adapter_and_a_sane_request() {
    let app = spawn_app().await;
    let key = app.key_with(&["wallet_adapter:write"]).await;
    assert_problem(
        app.post(TEST_PATH, &key, &json!({})).await,
        409,
        "wallet_adapter_not_configured",
    )
    .await;
    let body = assert_problem(
        app.post(TEST_PATH, &key, &json!({"amount": "0"})).await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(body["field"], "amount");
}
