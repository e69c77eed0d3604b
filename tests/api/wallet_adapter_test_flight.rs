//! `POST /api/operator/wallet-adapter/test`, flight section: the flight product's
//! native-IDR reasons run against their own test player in IDR, apart from Opinion's
//! checks, so a wallet that cannot take IDR keeps its Opinion verdict and the report
//! says per product whether it passed.

use std::collections::BTreeSet;

use opinion_testkit::FakeWallet;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::simulator_support::{connect, simulated_user};

const TEST_PATH: &str = "/api/operator/wallet-adapter/test";
const TEST_USER: &str = "opinion-wallet-test";
const FLIGHT_USER: &str = "opinion-wallet-test-idr";

async fn run_test(app: &TestApp, body: &Value) -> Value {
    json_with_status(app.post(TEST_PATH, &app.operator.key, body).await, 200).await
}

/// Creates a simulated user in `currency` with `balance`.
async fn simulated_user_in(app: &TestApp, external_user_id: &str, currency: &str, balance: i64) {
    let body = json!({
        "externalUserId": external_user_id,
        "currency": currency,
        "startingBalance": balance.to_string(),
    });
    json_with_status(
        app.post("/api/operator/simulator/users", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
}

fn names(checks: &Value, verdict: &str) -> BTreeSet<String> {
    checks
        .as_array()
        .expect("checks")
        .iter()
        .filter(|check| check["verdict"] == verdict)
        .map(|check| check["name"].as_str().expect("name").to_owned())
        .collect()
}

/// The simulated wallet's log of `player`: the flow and currency of each applied entry.
async fn applied_log(app: &TestApp, player: &str) -> (Value, Vec<(String, String)>) {
    let wallet = json_with_status(
        app.get(&format!("/api/operator/simulator/wallets/{player}"), &app.operator.key)
            .await,
        200,
    )
    .await;
    let applied = wallet["log"]
        .as_array()
        .expect("log")
        .iter()
        .filter(|entry| entry["applied"] == true)
        .map(|entry| {
            (
                entry["flow"].as_str().unwrap_or_default().to_owned(),
                entry["currency"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    (wallet, applied)
}

#[tokio::test]
async fn an_idr_simulated_user_takes_the_flight_reasons_and_the_flight_section_passes() {
    let app = spawn_app().await;
    simulated_user(&app, &app.operator.key, TEST_USER, 10_000).await;
    simulated_user_in(&app, FLIGHT_USER, "IDR", 50_000).await;
    connect(&app, &app.operator.key, 10_000).await;

    let report = run_test(&app, &json!({})).await;

    assert_eq!(report["verdict"], "passed", "{report:#}");
    assert_eq!(
        report["products"],
        json!({"opinion": "passed", "flight": "passed"}),
        "{report:#}"
    );
    let flight = &report["flight"];
    assert_eq!(names(&flight["checks"], "failed"), BTreeSet::new(), "{flight:#}");
    assert_eq!(flight["verdict"], "passed");
    assert_eq!(flight["currency"], "IDR");
    assert_eq!(flight["externalUserId"], FLIGHT_USER);
    assert_eq!(flight["amount"], "1000");
    assert_eq!(flight["netChange"], "0");
    for name in [
        "flight_balance_read",
        "flight_ticket_purchase",
        "flight_repeat_same_key",
        "flight_ticket_payout",
        "flight_ticket_refund",
        "metadata_flight_ticket_refund_refund_of",
        "flight_timing",
    ] {
        assert!(names(&flight["checks"], "passed").contains(name), "{name}");
    }
    assert!(
        report["testRunId"].as_str().is_some_and(|id| id.starts_with("wtr_")),
        "{report:#}"
    );
    assert!(report["ranAt"].as_str().is_some_and(|at| at.ends_with('Z')));
    let opinion_names = names(&report["checks"], "passed");
    assert!(
        opinion_names.iter().all(|name| !name.contains("flight")),
        "{opinion_names:?}"
    );

    let (wallet, applied) = applied_log(&app, FLIGHT_USER).await;
    assert_eq!(wallet["balance"], "50000", "{wallet:#}");
    let idr = |flow: &str| (flow.to_owned(), "IDR".to_owned());
    let expected = [
        idr("flight_ticket_refund"),
        idr("flight_ticket_payout"),
        idr("flight_ticket_purchase"),
        idr("flight_ticket_purchase"),
        idr("flight_ticket_purchase"),
    ];
    let mut applied_sorted = applied.clone();
    applied_sorted.sort();
    let mut expected_sorted = expected.to_vec();
    expected_sorted.sort();
    assert_eq!(
        applied_sorted, expected_sorted,
        "three stakes, a payout and a refund moved money: {wallet:#}"
    );
    let (opinion_wallet, _) = applied_log(&app, TEST_USER).await;
    assert_eq!(opinion_wallet["balance"], "10000");
}

#[tokio::test]
async fn a_usd_simulated_user_refuses_the_flight_reasons_and_only_the_flight_verdict_fails() {
    let app = spawn_app().await;
    simulated_user(&app, &app.operator.key, TEST_USER, 10_000).await;
    simulated_user_in(&app, FLIGHT_USER, "USD", 50_000).await;
    connect(&app, &app.operator.key, 10_000).await;

    let report = run_test(&app, &json!({})).await;

    assert_eq!(report["verdict"], "passed", "the Opinion verdict stands: {report:#}");
    assert_eq!(report["products"], json!({"opinion": "passed", "flight": "failed"}));
    let flight = &report["flight"];
    assert_eq!(flight["verdict"], "failed");
    let failed = names(&flight["checks"], "failed");
    for name in [
        "flight_balance_read",
        "flight_ticket_purchase",
        "flight_repeat_same_key",
        "flight_ticket_payout",
        "flight_ticket_refund",
    ] {
        assert!(failed.contains(name), "{name}: {flight:#}");
    }
    let purchase = flight["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|check| check["name"] == "flight_ticket_purchase")
        .expect("purchase");
    assert!(
        purchase["exchanges"][0]["received"]
            .as_str()
            .is_some_and(|received| received.contains("currency_mismatch")),
        "{purchase:#}"
    );
    assert!(
        purchase["fix"].as_str().is_some_and(|fix| fix.contains("IDR")),
        "{purchase}"
    );
    let (wallet, applied) = applied_log(&app, FLIGHT_USER).await;
    assert_eq!(wallet["balance"], "50000");
    assert_eq!(applied, Vec::<(String, String)>::new(), "nothing moved: {wallet:#}");
}

#[tokio::test]
async fn a_contract_abiding_wallet_with_an_idr_account_passes_both_products() {
    let app = spawn_app().await;
    let wallet = FakeWallet::start_in("USD").await;
    let saved = json_with_status(
        app.request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
            .json(&json!({"baseUrl": wallet.url()}))
            .send()
            .await
            .expect("put"),
        201,
    )
    .await;
    wallet.set_secret(saved["signingSecret"].as_str().expect("secret"));
    wallet.set_balance(TEST_USER, 10_000);
    wallet.open_account("idr-tester", 90_000, "IDR");

    let report = run_test(
        &app,
        &json!({"flightExternalUserId": "idr-tester", "flightAmount": "5000"}),
    )
    .await;

    assert_eq!(
        report["products"],
        json!({"opinion": "passed", "flight": "passed"}),
        "{report:#}"
    );
    assert_eq!(report["flight"]["externalUserId"], "idr-tester");
    assert_eq!(report["flight"]["amount"], "5000");
    assert_eq!(wallet.balance("idr-tester"), Some(90_000));
    assert_eq!(wallet.balance(TEST_USER), Some(10_000));
    let flight_entries: Vec<_> = wallet
        .ledger()
        .into_iter()
        .filter(|entry| entry.metadata("ticketId").is_some())
        .collect();
    assert!(!flight_entries.is_empty());
    assert!(
        flight_entries
            .iter()
            .all(|entry| entry.metadata("marketId").is_none() && entry.metadata("flightId").is_some()),
        "flight mutations name their flight and ticket, never a market"
    );

    let without = FakeWallet::start_in("USD").await;
    let body = json!({"baseUrl": without.url()});
    let changed = json_with_status(
        app.request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
            .json(&body)
            .send()
            .await
            .expect("put"),
        200,
    )
    .await;
    assert_eq!(changed["baseUrl"], without.url());
    without.set_secret(saved["signingSecret"].as_str().expect("secret"));
    without.set_balance(TEST_USER, 10_000);
    let report = run_test(&app, &json!({})).await;
    assert_eq!(
        report["products"],
        json!({"opinion": "passed", "flight": "failed"}),
        "no IDR test player: {report:#}"
    );
    assert!(names(&report["flight"]["checks"], "failed").contains("flight_balance_read"));
}

#[tokio::test]
async fn flight_test_inputs_are_checked_and_named() {
    let app = spawn_app().await;
    simulated_user(&app, &app.operator.key, TEST_USER, 10_000).await;
    connect(&app, &app.operator.key, 10_000).await;
    for (body, field) in [
        (json!({"flightAmount": "0"}), "flightAmount"),
        (json!({"flightAmount": "1000000001"}), "flightAmount"),
        (json!({"flightAmount": "1.5"}), "flightAmount"),
        (json!({"flightExternalUserId": ""}), "flightExternalUserId"),
    ] {
        let problem = assert_problem(
            app.post(TEST_PATH, &app.operator.key, &body).await,
            400,
            "validation_failed",
        )
        .await;
        assert_eq!(problem["field"], field, "{body}");
    }
}
