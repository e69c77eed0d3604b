//! The wallet test against mocks: both sections against an in-memory wallet obeying the
//! contract (the wallet domain's `ReferenceWallet` behind the probe port), the run kept
//! with its verdicts, and the verdict query enabling the flight product reads.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use opinion_access::Grant;
use opinion_wallet::{
    AdapterBaseUrl, AdapterSecrets, AdapterTimeout, Currency, ReferenceWallet, WalletFlow, required_metadata,
};
use opinion_webhook::SigningSecret;
use serde_json::Value;
use time::Duration as TimeDuration;

use super::*;
use crate::access::ports::MockOperatorStore;
use crate::model::{Operator, WalletAdapterConfig};
use crate::ports::StoreError;
use crate::test_support::{NOW, OPERATOR, api_key_caller, counting_random, fixed_clock};
use crate::wallet::ports::{
    MockFlightMoneyGate, MockWalletAdapterStore, MockWalletGateway, MockWalletTestRunStore, ProbeObserved,
    ProbeOutcome, ProbePath, ProbeSigning, WalletAdapterTarget, WalletProbe, WalletTestRun,
};

const BASE_URL: &str = "https://wallet.example.com/opinion";
const FLIGHT_USER: &str = DEFAULT_FLIGHT_TEST_USER;

fn eur() -> Currency {
    "EUR".parse().expect("currency")
}

/// How the in-memory wallet behind the probes treats the flight flows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Wallet {
    /// Obeys the contract.
    Abiding,
    /// Fills in every missing required metadata key before acting, so applies what it
    /// should refuse.
    IgnoresMetadata,
}

/// An EUR wallet with the Opinion test player in EUR and the flight test player in
/// `flight_currency`.
pub(super) fn wallet(flight_currency: Currency) -> Arc<Mutex<ReferenceWallet>> {
    let mut wallet = ReferenceWallet::new(eur());
    wallet.set_balance(DEFAULT_TEST_USER, 10_000);
    wallet.open_account(FLIGHT_USER, 50_000, flight_currency);
    Arc::new(Mutex::new(wallet))
}

/// The body a real client sends for `probe`: its fields and a `requestedAt`.
fn body(probe: &WalletProbe, behaviour: Wallet) -> Vec<u8> {
    let mut fields = probe.fields.clone();
    fields.insert("requestedAt".into(), "2026-11-22T12:00:00Z".into());
    if behaviour == Wallet::IgnoresMetadata {
        let flow = fields
            .get("flow")
            .and_then(Value::as_str)
            .and_then(|flow| flow.parse::<WalletFlow>().ok());
        if let (Some(flow), Some(Value::Object(metadata))) = (flow, fields.get_mut("metadata")) {
            for key in required_metadata(flow) {
                metadata.entry(key.as_str()).or_insert_with(|| Value::from("unchecked"));
            }
        }
    }
    serde_json::to_vec(&Value::Object(fields)).expect("body")
}

/// `wallet`'s answer to `probe`; another secret or a stale timestamp is refused as the
/// signature check of a real wallet would.
pub(super) fn answer(wallet: &Mutex<ReferenceWallet>, behaviour: Wallet, probe: &WalletProbe) -> ProbeOutcome {
    let sent = body(probe, behaviour);
    let mut wallet = wallet.lock().unwrap_or_else(PoisonError::into_inner);
    let forged = matches!(probe.signing, ProbeSigning::With(_)) || probe.timestamp_shift_secs < -300;
    let answer = if forged {
        opinion_wallet::WalletAnswer::refused(opinion_wallet::RefusalCode::InvalidSignature, "bad signature")
    } else {
        match probe.path {
            ProbePath::Mutations => wallet.receive(&sent, probe.idempotency_key.as_deref()),
            ProbePath::Balance => wallet.read_balance(&sent),
        }
    };
    ProbeOutcome {
        sent_body: String::from_utf8_lossy(&sent).into_owned(),
        observed: ProbeObserved::Answered {
            status: answer.status,
            body: answer.body_bytes().expect("answer"),
        },
        elapsed: Duration::from_millis(5),
    }
}

/// A gateway answering probes from `wallet`.
fn gateway(wallet: Arc<Mutex<ReferenceWallet>>, behaviour: Wallet) -> MockWalletGateway {
    let mut gateway = MockWalletGateway::new();
    gateway
        .expect_probe()
        .returning(move |_, probe| answer(&wallet, behaviour, probe));
    gateway
}

pub(super) fn adapter(updated_at: time::OffsetDateTime) -> WalletAdapterConfig {
    WalletAdapterConfig {
        operator_id: OPERATOR,
        base_url: AdapterBaseUrl::parse(BASE_URL, true).expect("url"),
        timeout: AdapterTimeout::from_millis(10_000).expect("timeout"),
        secrets: AdapterSecrets::new(SigningSecret::from_random_bytes(&[3; 32]).expect("secret")),
        created_at: NOW - TimeDuration::days(2),
        updated_at,
        revision: 1,
    }
}

pub(super) fn adapters(config: Option<WalletAdapterConfig>) -> MockWalletAdapterStore {
    let mut adapters = MockWalletAdapterStore::new();
    let target = config.as_ref().map(|config| WalletAdapterTarget {
        operator_id: OPERATOR,
        base_url: config.base_url.as_str().to_owned(),
        timeout: Duration::from_secs(10),
        signing_secrets: config.secrets.signing(NOW.unix_timestamp()),
    });
    adapters
        .expect_find_wallet_target()
        .returning(move |_| Ok(target.clone()));
    adapters
        .expect_find_wallet_adapter()
        .returning(move |_| Ok(config.clone()));
    adapters
}

fn operators() -> MockOperatorStore {
    let mut operators = MockOperatorStore::new();
    operators.expect_find_operator().returning(|id| {
        Ok(Some(Operator {
            id,
            name: "Operator".into(),
            currency: eur(),
            created_at: NOW - TimeDuration::days(30),
        }))
    });
    operators
}

/// Runs that record into the returned list and answer `latest` when asked.
pub(super) fn runs(latest: Option<WalletTestRun>) -> (MockWalletTestRunStore, Arc<Mutex<Vec<WalletTestRun>>>) {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let sink = kept.clone();
    let mut runs = MockWalletTestRunStore::new();
    runs.expect_record_wallet_test_run().returning(move |run| {
        sink.lock().unwrap_or_else(PoisonError::into_inner).push(run.clone());
        Ok(())
    });
    runs.expect_latest_wallet_test_run()
        .returning(move |_| Ok(latest.clone()));
    (runs, kept)
}

/// A gate that lets flight money move (staging, or an authorized operator).
fn flight_money_moves() -> MockFlightMoneyGate {
    let mut gate = MockFlightMoneyGate::new();
    gate.expect_flight_money_may_move().returning(|_| Ok(true));
    gate
}

fn service(
    adapters: MockWalletAdapterStore,
    gateway: MockWalletGateway,
    runs: MockWalletTestRunStore,
) -> WalletAdapterTest {
    gated_service(adapters, gateway, runs, flight_money_moves())
}

/// The test whose flight section asks `gate` whether it may call the wallet.
pub(super) fn gated_service(
    adapters: MockWalletAdapterStore,
    gateway: MockWalletGateway,
    runs: MockWalletTestRunStore,
    gate: MockFlightMoneyGate,
) -> WalletAdapterTest {
    WalletAdapterTest::new(WalletTestPorts {
        adapters: Arc::new(adapters),
        wallet: Arc::new(gateway),
        operators: Arc::new(operators()),
        runs: Arc::new(runs),
        flight_money: Arc::new(gate),
        clock: fixed_clock(),
        random: counting_random(1_000, [7; 32]),
    })
}

/// Runs the test against `wallet` and returns the report and the kept runs.
async fn run_against(wallet: Arc<Mutex<ReferenceWallet>>, behaviour: Wallet) -> (WalletTestReport, Vec<WalletTestRun>) {
    let (runs, kept) = runs(None);
    let service = service(
        adapters(Some(adapter(NOW - TimeDuration::hours(1)))),
        gateway(wallet, behaviour),
        runs,
    );
    let report = service
        .run(&api_key_caller(Grant::All), WalletTestRequest::default())
        .await
        .expect("report");
    let kept = kept.lock().unwrap_or_else(PoisonError::into_inner).clone();
    (report, kept)
}

pub(super) fn names(section: &SectionReport) -> Vec<&str> {
    section.checks.iter().map(|check| check.name.as_str()).collect()
}

fn failed(section: &SectionReport) -> BTreeSet<&str> {
    section
        .checks
        .iter()
        .filter(|check| check.verdict == Verdict::Failed)
        .map(|check| check.name.as_str())
        .collect()
}

fn sent_bodies(section: &SectionReport, check: &str) -> Vec<Value> {
    section
        .checks
        .iter()
        .filter(|c| c.name == check)
        .flat_map(|c| c.exchanges.iter())
        .filter(|exchange| exchange.call.starts_with("POST /v1/mutations"))
        .map(|exchange| serde_json::from_str(&exchange.sent).expect("sent body"))
        .collect()
}

#[tokio::test]
async fn a_wallet_taking_idr_passes_both_sections_and_both_net_to_zero() {
    let wallet = wallet(Currency::IDR);
    let (report, kept) = run_against(wallet.clone(), Wallet::Abiding).await;
    assert_eq!(failed(&report.opinion), BTreeSet::new(), "{:#?}", report.opinion);
    assert_eq!(failed(&report.flight), BTreeSet::new(), "{:#?}", report.flight);
    assert!(report.opinion.passed && report.flight.passed);
    assert_eq!(report.flight.currency, Currency::IDR);
    assert_eq!(report.opinion.currency, eur());
    assert_eq!(report.flight.external_user_id, FLIGHT_USER);
    assert_eq!(report.flight.amount, DEFAULT_FLIGHT_TEST_AMOUNT);
    assert_eq!(
        (report.opinion.net_change, report.flight.net_change),
        (Some(0), Some(0))
    );
    let wallet = wallet.lock().unwrap_or_else(PoisonError::into_inner);
    assert_eq!(wallet.balance(DEFAULT_TEST_USER), Some(10_000));
    assert_eq!(wallet.balance(FLIGHT_USER), Some(50_000));
    assert_eq!(
        names(&report.flight),
        [
            "flight_balance_read",
            "flight_ticket_purchase",
            "flight_repeat_same_key",
            "flight_ticket_payout",
            "flight_ticket_refund",
            "metadata_flight_ticket_purchase_flight_id",
            "metadata_flight_ticket_purchase_ticket_id",
            "metadata_flight_ticket_purchase_auto_cash_out",
            "metadata_flight_ticket_payout_flight_id",
            "metadata_flight_ticket_payout_ticket_id",
            "metadata_flight_ticket_payout_multiplier",
            "metadata_flight_ticket_refund_flight_id",
            "metadata_flight_ticket_refund_ticket_id",
            "metadata_flight_ticket_refund_refund_of",
            "flight_timing",
        ]
    );
    assert!(
        !names(&report.opinion).iter().any(|name| name.contains("flight")),
        "Opinion's section is Opinion's alone"
    );
    assert_eq!(kept.len(), 1);
    assert_eq!(
        (kept[0].opinion_passed, kept[0].flight_passed),
        (true, true),
        "the run is kept with its verdicts"
    );
}

#[tokio::test]
async fn flight_mutations_go_in_idr_with_their_reason_and_metadata() {
    let (report, _) = run_against(wallet(Currency::IDR), Wallet::Abiding).await;
    let purchases = sent_bodies(&report.flight, "flight_ticket_purchase");
    assert_eq!(purchases.len(), 3);
    for purchase in &purchases {
        assert_eq!(purchase["currency"], "IDR");
        assert_eq!(purchase["reason"], "flight_ticket_purchase");
        assert_eq!(purchase["direction"], "debit");
        assert_eq!(purchase["amount"], "1000");
        assert_eq!(purchase["externalUserId"], FLIGHT_USER);
    }
    let auto: Vec<&Value> = purchases.iter().map(|p| &p["metadata"]["autoCashOut"]).collect();
    assert_eq!(auto, ["2.00", "none", "none"]);
    let [payout] = sent_bodies(&report.flight, "flight_ticket_payout")
        .try_into()
        .expect("one payout");
    assert_eq!(payout["reason"], "flight_ticket_payout");
    assert_eq!(payout["direction"], "credit");
    assert_eq!(payout["amount"], "2000", "one stake at 2.00");
    assert_eq!(payout["metadata"]["multiplier"], "2.00");
    assert_eq!(payout["metadata"]["ticketId"], purchases[0]["metadata"]["ticketId"]);
    let [refund] = sent_bodies(&report.flight, "flight_ticket_refund")
        .try_into()
        .expect("one refund");
    assert_eq!(refund["reason"], "flight_ticket_refund");
    assert_eq!(refund["amount"], "1000");
    assert_eq!(refund["metadata"]["ticketId"], purchases[2]["metadata"]["ticketId"]);
    assert!(
        refund["metadata"]["refundOf"]
            .as_str()
            .is_some_and(|id| id.starts_with("wop_")),
        "{refund}"
    );
    let flights: BTreeSet<&str> = [&purchases[0], &purchases[1], &purchases[2], &payout, &refund]
        .iter()
        .filter_map(|body| body["metadata"]["flightId"].as_str())
        .collect();
    assert_eq!(flights.len(), 1, "one made-up flight: {flights:?}");
    assert!(flights.iter().all(|id| id.starts_with("flt_")));
    let repeat = report
        .flight
        .checks
        .iter()
        .find(|check| check.name == "flight_repeat_same_key")
        .expect("repeat");
    assert_eq!(
        repeat.exchanges[0].idempotency_key.as_deref(),
        purchases[0]["idempotencyKey"].as_str(),
        "the same key again"
    );
}

#[tokio::test]
async fn a_flight_mutation_missing_a_metadata_key_is_sent_without_it() {
    let (report, _) = run_against(wallet(Currency::IDR), Wallet::Abiding).await;
    for flow in WalletFlow::FLIGHT {
        for key in required_metadata(flow) {
            let name = format!("metadata_{flow}_{}", super::checks::snake(key.as_str()));
            let [sent] = sent_bodies(&report.flight, &name).try_into().expect("one probe");
            assert_eq!(sent["flow"], flow.as_str());
            assert_eq!(sent["currency"], "IDR");
            assert!(sent["metadata"].get(key.as_str()).is_none(), "{name}: {sent}");
        }
    }
}

#[tokio::test]
async fn a_wallet_that_cannot_take_idr_keeps_its_opinion_verdict_and_fails_the_flight_section() {
    let wallet = wallet(eur());
    let (report, kept) = run_against(wallet.clone(), Wallet::Abiding).await;
    assert!(report.opinion.passed, "{:#?}", report.opinion);
    assert!(!report.flight.passed);
    for check in [
        "flight_balance_read",
        "flight_ticket_purchase",
        "flight_repeat_same_key",
        "flight_ticket_payout",
        "flight_ticket_refund",
    ] {
        assert!(failed(&report.flight).contains(check), "{check}");
    }
    let purchase = report
        .flight
        .checks
        .iter()
        .find(|check| check.name == "flight_ticket_purchase")
        .expect("purchase");
    assert!(
        purchase.exchanges[0].received.contains("currency_mismatch"),
        "{:?}",
        purchase.exchanges[0]
    );
    assert_eq!(
        wallet
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .balance(FLIGHT_USER),
        Some(50_000),
        "nothing moved"
    );
    assert_eq!((kept[0].opinion_passed, kept[0].flight_passed), (true, false));
}

#[tokio::test]
async fn a_wallet_ignoring_flight_metadata_fails_those_checks_and_is_set_back() {
    let wallet = wallet(Currency::IDR);
    let (report, _) = run_against(wallet.clone(), Wallet::IgnoresMetadata).await;
    let metadata_checks: BTreeSet<String> = WalletFlow::FLIGHT
        .into_iter()
        .flat_map(|flow| {
            required_metadata(flow)
                .iter()
                .map(move |key| format!("metadata_{flow}_{}", super::checks::snake(key.as_str())))
        })
        .collect();
    let failed: BTreeSet<String> = failed(&report.flight).into_iter().map(str::to_owned).collect();
    assert_eq!(failed, metadata_checks);
    assert!(!report.flight.passed);
    assert_eq!(report.flight.net_change, Some(0), "{:#?}", report.flight.cleanup);
    assert_eq!(report.flight.cleanup.len(), 3, "a read, the undoing purchase, a read");
    assert_eq!(
        wallet
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .balance(FLIGHT_USER),
        Some(50_000)
    );
}

#[tokio::test]
async fn the_kept_report_is_the_whole_report_as_json() {
    let (report, kept) = run_against(wallet(Currency::IDR), Wallet::Abiding).await;
    let run = &kept[0];
    assert_eq!(run.id, report.id);
    assert_eq!(run.operator_id, OPERATOR);
    assert_eq!(run.ran_at, NOW);
    assert_eq!(run.base_url, BASE_URL);
    assert_eq!(run.report["id"], report.id.to_string());
    assert_eq!(run.report["baseUrl"], BASE_URL);
    assert_eq!(run.report["timeoutMs"], 10_000);
    assert_eq!(run.report["flight"]["currency"], "IDR");
    assert_eq!(run.report["flight"]["passed"], true);
    assert_eq!(run.report["opinion"]["currency"], "EUR");
    assert_eq!(run.report["flight"]["checks"][0]["name"], "flight_balance_read");
    assert_eq!(run.report["flight"]["checks"][0]["verdict"], "passed");
}

#[tokio::test]
async fn flight_test_inputs_are_checked_and_named() {
    let (runs, _) = runs(None);
    let service = service(
        adapters(Some(adapter(NOW))),
        gateway(wallet(Currency::IDR), Wallet::Abiding),
        runs,
    );
    let cases = [
        (
            "flightAmount",
            WalletTestRequest {
                flight_amount: Some(0),
                ..Default::default()
            },
        ),
        (
            "flightAmount",
            WalletTestRequest {
                flight_amount: Some(1_000_000_001),
                ..Default::default()
            },
        ),
        (
            "flightExternalUserId",
            WalletTestRequest {
                flight_external_user_id: Some(String::new()),
                ..Default::default()
            },
        ),
    ];
    for (field, request) in cases {
        let error = service
            .run(&api_key_caller(Grant::All), request)
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Invalid { field: f, .. } if f == field),
            "{error:?}"
        );
    }
}

#[tokio::test]
async fn a_run_that_cannot_be_kept_is_an_error() {
    let mut runs = MockWalletTestRunStore::new();
    runs.expect_record_wallet_test_run()
        .returning(|_| Err(StoreError::Unavailable("down".into())));
    let service = service(
        adapters(Some(adapter(NOW))),
        gateway(wallet(Currency::IDR), Wallet::Abiding),
        runs,
    );
    let result = service
        .run(&api_key_caller(Grant::All), WalletTestRequest::default())
        .await;
    assert!(matches!(result, Err(AppError::StoreUnavailable(_))), "{result:?}");
}

fn kept_run(base_url: &str, ran_at: time::OffsetDateTime, flight_passed: bool) -> WalletTestRun {
    WalletTestRun {
        id: opinion_core::WalletTestRunId::from_u128(5),
        operator_id: OPERATOR,
        ran_at,
        base_url: base_url.into(),
        opinion_passed: true,
        flight_passed,
        report: Value::Object(serde_json::Map::new()),
    }
}

async fn verdict(config: Option<WalletAdapterConfig>, latest: Option<WalletTestRun>) -> bool {
    let (runs, _) = runs(latest);
    service(adapters(config), MockWalletGateway::new(), runs)
        .flight_wallet_test_passed(OPERATOR)
        .await
        .expect("verdict")
}

#[tokio::test]
async fn the_latest_run_against_the_current_adapter_decides_the_flight_verdict() {
    let configured = NOW - TimeDuration::hours(2);
    let after = NOW - TimeDuration::hours(1);
    let config = || Some(adapter(configured));
    assert!(verdict(config(), Some(kept_run(BASE_URL, after, true))).await);
    assert!(
        verdict(config(), Some(kept_run(BASE_URL, configured, true))).await,
        "a run started at the change ran against it"
    );
    assert!(
        !verdict(config(), Some(kept_run(BASE_URL, after, false))).await,
        "the latest run failed the flight section"
    );
    assert!(
        !verdict(config(), Some(kept_run("https://old.example.com", after, true))).await,
        "it ran against another base URL"
    );
    assert!(
        !verdict(Some(adapter(NOW)), Some(kept_run(BASE_URL, after, true))).await,
        "the configuration changed after the run"
    );
    assert!(!verdict(config(), None).await, "never tested");
    assert!(
        !verdict(None, Some(kept_run(BASE_URL, after, true))).await,
        "no adapter now"
    );
}
