//! The wallet test's flight section and production authorization, against mocks: when
//! the flight game says no flight money may move for the operator (production without a
//! valid authorization), the flight section makes no wallet call and reports why, while
//! Opinion's section runs as before; when it may, both run. The gate is asked when the
//! flight section is due, after Opinion's section.

use std::sync::{Arc, Mutex, PoisonError};

use opinion_access::Grant;
use opinion_wallet::Currency;
use serde_json::{Value, json};
use time::Duration as TimeDuration;

use super::tests::{Wallet, adapter, adapters, answer, gated_service, names, runs, wallet};
use super::*;
use crate::ports::StoreError;
use crate::test_support::{NOW, OPERATOR, api_key_caller};
use crate::wallet::ports::{MockFlightMoneyGate, MockWalletGateway, WalletTestRun};

/// What reached the wallet and the gate, in order: `probe <externalUserId> <currency>`
/// for each call, `gate` when the flight game was asked.
type Log = Arc<Mutex<Vec<String>>>;

fn entries(log: &Log) -> Vec<String> {
    log.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

/// A wallet obeying the contract whose every call is logged.
fn logging_gateway(log: Log) -> MockWalletGateway {
    let wallet = wallet(Currency::IDR);
    let mut gateway = MockWalletGateway::new();
    gateway.expect_probe().returning(move |_, probe| {
        let field = |name: &str| probe.fields.get(name).and_then(Value::as_str).unwrap_or("-").to_owned();
        log.lock().unwrap_or_else(PoisonError::into_inner).push(format!(
            "probe {} {}",
            field("externalUserId"),
            field("currency")
        ));
        answer(&wallet, Wallet::Abiding, probe)
    });
    gateway
}

/// A gate answering `answer` for the operator, once, logging that it was asked.
fn gate(log: Log, answer: Result<bool, StoreError>) -> MockFlightMoneyGate {
    let mut gate = MockFlightMoneyGate::new();
    gate.expect_flight_money_may_move()
        .withf(|operator| *operator == OPERATOR)
        .times(1)
        .return_once(move |_| {
            log.lock().unwrap_or_else(PoisonError::into_inner).push("gate".into());
            answer
        });
    gate
}

/// Runs the test with the flight game answering `may_move`; the result, the log and
/// the kept runs.
async fn run_gated(
    may_move: Result<bool, StoreError>,
) -> (Result<WalletTestReport, AppError>, Vec<String>, Vec<WalletTestRun>) {
    let log = Log::default();
    let (runs, kept) = runs(None);
    let service = gated_service(
        adapters(Some(adapter(NOW - TimeDuration::hours(1)))),
        logging_gateway(log.clone()),
        runs,
        gate(log.clone(), may_move),
    );
    let result = service
        .run(&api_key_caller(Grant::All), WalletTestRequest::default())
        .await;
    let kept = kept.lock().unwrap_or_else(PoisonError::into_inner).clone();
    (result, entries(&log), kept)
}

fn calls_for<'a>(log: &'a [String], user: &str) -> Vec<&'a String> {
    log.iter()
        .filter(|entry| entry.starts_with(&format!("probe {user} ")))
        .collect()
}

#[tokio::test]
async fn without_a_production_authorization_the_flight_section_makes_no_call_and_says_why() {
    let (result, log, kept) = run_gated(Ok(false)).await;
    let report = result.expect("report");

    assert!(report.opinion.passed, "{:#?}", report.opinion);
    assert_eq!(report.opinion.not_run, None);
    assert!(!calls_for(&log, DEFAULT_TEST_USER).is_empty(), "Opinion's section ran");
    assert_eq!(calls_for(&log, DEFAULT_FLIGHT_TEST_USER), Vec::<&String>::new());
    assert!(
        log.iter().all(|entry| !entry.ends_with(" IDR")),
        "no call in IDR at all: {log:?}"
    );
    assert_eq!(
        log.last().map(String::as_str),
        Some("gate"),
        "asked when the flight section was due"
    );

    let flight = &report.flight;
    assert_eq!(flight.not_run, Some(NotRun::ProductionAuthorizationMissing));
    assert!(!flight.passed, "a section that did not run has not passed");
    assert_eq!(
        (flight.external_user_id.as_str(), flight.amount, flight.currency),
        (DEFAULT_FLIGHT_TEST_USER, DEFAULT_FLIGHT_TEST_AMOUNT, Currency::IDR)
    );
    assert!(flight.checks.is_empty() && flight.cleanup.is_empty() && flight.net_change.is_none());

    assert_eq!(kept.len(), 1);
    assert_eq!((kept[0].opinion_passed, kept[0].flight_passed), (true, false));
    assert_eq!(
        kept[0].report["flight"]["notRun"],
        json!("production_authorization_missing")
    );
    assert_eq!(kept[0].report["flight"]["passed"], json!(false));
}

#[tokio::test]
async fn with_flight_money_allowed_both_sections_run_and_pass() {
    let (result, log, kept) = run_gated(Ok(true)).await;
    let report = result.expect("report");
    assert!(report.opinion.passed && report.flight.passed, "{report:#?}");
    assert_eq!(report.flight.not_run, None);
    assert_eq!(names(&report.flight).first(), Some(&"flight_balance_read"));
    let gate_at = log.iter().position(|entry| entry == "gate").expect("asked");
    let flight_calls: Vec<usize> = (0..log.len())
        .filter(|&n| log[n].starts_with(&format!("probe {DEFAULT_FLIGHT_TEST_USER} ")))
        .collect();
    assert!(!flight_calls.is_empty(), "the flight section called the wallet");
    assert!(
        flight_calls.iter().all(|&n| n > gate_at),
        "every flight call follows the question: {log:?}"
    );
    assert!(calls_for(&log, DEFAULT_TEST_USER).len() > 1);
    assert_eq!((kept[0].opinion_passed, kept[0].flight_passed), (true, true));
    assert_eq!(kept[0].report["flight"]["notRun"], Value::Null);
}

#[tokio::test]
async fn a_gate_that_cannot_answer_makes_the_run_an_error_with_no_flight_call_and_nothing_kept() {
    let (result, log, kept) = run_gated(Err(StoreError::Unavailable("down".into()))).await;
    assert!(matches!(result, Err(AppError::StoreUnavailable(_))), "{result:?}");
    assert_eq!(calls_for(&log, DEFAULT_FLIGHT_TEST_USER), Vec::<&String>::new());
    assert!(kept.is_empty(), "no verdict without a flight section decided");
}
