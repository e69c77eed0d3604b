//! The payout of a cashed-out ticket under wallet faults, as `docs/operator/flight.md` ("Engine and
//! failure behaviour", "Money") says: a payout is a primary mutation, so an answer that
//! leaves its outcome unknown (a time-out, a 5xx, a body that is not the contract's)
//! sends it to manual review with `mini_app.wallet_operation.manual_review_required`,
//! never to a second call; a definite refusal leaves it owed and sends it to manual review
//! too, with its amount (the ticket `cashed_out`, unsettled, nothing sent again); a clean
//! answer settles the ticket. Every payout is one
//! call under one idempotency key, and the wallet moves money for it at most once.

use std::time::Duration;

use opinion_testkit::{FakeWallet, Fault};
use opinion_wallet::RefusalCode;
use reqwest::Method;
use serde_json::{Value, json};

use crate::flight_steps::operator_ticket;
use crate::flight_support::{cashed_out_ticket, enable_flight, flight_player};
use crate::helpers::{TestApp, json_with_status};
use crate::webhooks_support::{deliveries, register};

/// The stake of every ticket: 10 000 IDR at 1.01× pays 10 100.
const STAKE: &str = "10000";
const PAYOUT: i64 = 10_100;
const BALANCE: i64 = 1_000_000;

/// The adapter's time limit: the slow answer below takes longer.
const TIMEOUT_MS: u64 = 1_000;

/// Points the operator's (already flight-enabled) adapter at a fake IDR wallet.
async fn fake_wallet(app: &TestApp) -> FakeWallet {
    let wallet = FakeWallet::start().await;
    let body = json!({"baseUrl": wallet.url(), "timeoutMs": TIMEOUT_MS, "rotateSecret": true});
    let response = app
        .request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
        .json(&body)
        .send()
        .await
        .expect("request");
    let saved = json_with_status(response, 200).await;
    wallet.set_secret(saved["signingSecret"].as_str().expect("signingSecret"));
    wallet
}

/// The ticket's payout operations as the operator reads them.
async fn payouts(app: &TestApp, ticket: &str) -> Vec<Value> {
    let path = format!("/api/operator/flight/wallet-operations?ticketId={ticket}&flow=flight_ticket_payout");
    let page = json_with_status(app.get(&path, &app.operator.key).await, 200).await;
    page["data"].as_array().expect("data").clone()
}

/// How many payout requests of `player` the wallet received, and under how many keys.
fn payout_calls(wallet: &FakeWallet, player: &str) -> (usize, usize) {
    let calls: Vec<String> = wallet
        .ledger()
        .iter()
        .filter_map(|entry| entry.request.as_ref())
        .filter(|request| request.external_user_id == player && request.flow.as_str() == "flight_ticket_payout")
        .map(|request| request.idempotency_key.to_string())
        .collect();
    let mut keys = calls.clone();
    keys.sort();
    keys.dedup();
    (calls.len(), keys.len())
}

/// A player of the operator with an IDR account, cashed out once; its ticket.
async fn cashed_out(app: &TestApp, wallet: &FakeWallet, player: &str) -> Value {
    wallet.open_account(player, BALANCE, "IDR");
    let session = flight_player(app, &app.operator, player).await;
    let ticket = cashed_out_ticket(app, &session, STAKE).await;
    assert_eq!(ticket["payout"], PAYOUT.to_string(), "{ticket}");
    ticket
}

/// Runs a few money passes (a second and later pass must send nothing again).
async fn money_passes(app: &TestApp) {
    for _ in 0..3 {
        app.flight.run_money_pass().await.expect("money pass");
    }
}

/// What the wallet received and did for one fault, and what the operator reads.
struct Outcome {
    ticket: Value,
    operation: Value,
    calls: (usize, usize),
    balance: i64,
}

async fn pay_under(app: &TestApp, wallet: &FakeWallet, player: &str, fault: Option<Fault>) -> Outcome {
    let ticket = cashed_out(app, wallet, player).await;
    let before = wallet.balance(player).expect("account");
    let slow = matches!(fault, Some(Fault::SlowAnswer(_)));
    if let Some(fault) = fault {
        wallet.fail_next(player, fault);
    }
    money_passes(app).await;
    if slow {
        // The slow answer is applied after the caller gave up; let it land, then pass
        // again: nothing may be sent a second time.
        tokio::time::sleep(Duration::from_millis(2 * TIMEOUT_MS + 500)).await;
        money_passes(app).await;
    }
    let id = ticket["id"].as_str().expect("id");
    let operations = payouts(app, id).await;
    assert_eq!(operations.len(), 1, "one payout operation per ticket: {operations:#?}");
    Outcome {
        ticket: operator_ticket(app, &app.operator.key, id).await,
        operation: operations[0].clone(),
        calls: payout_calls(wallet, player),
        balance: wallet.balance(player).expect("account") - before,
    }
}

fn assert_in_review(outcome: &Outcome, moved: i64, what: &str) {
    assert_eq!(
        outcome.operation["state"], "manual_review",
        "{what}: {:#}",
        outcome.operation
    );
    assert_eq!(outcome.ticket["status"], "cashed_out", "{what}: {:#}", outcome.ticket);
    assert!(outcome.ticket["settledAt"].is_null(), "{what}: {:#}", outcome.ticket);
    assert_eq!(outcome.calls, (1, 1), "{what}: called once, never again");
    assert_eq!(outcome.balance, moved, "{what}: what the wallet moved");
}

#[tokio::test]
async fn a_payout_under_wallet_faults_goes_to_review_and_is_never_paid_twice() {
    let app = spawn_flight_app_with_events().await;
    let wallet = fake_wallet(&app).await;

    let timed_out = pay_under(
        &app,
        &wallet,
        "slow",
        Some(Fault::SlowAnswer(Duration::from_millis(2 * TIMEOUT_MS))),
    )
    .await;
    assert_in_review(&timed_out, PAYOUT, "a time-out (applied after the caller gave up)");

    let server_error = pay_under(&app, &wallet, "fivexx", Some(Fault::ServerError(503))).await;
    assert_in_review(&server_error, 0, "a 503 (nothing applied)");

    let garbage = pay_under(&app, &wallet, "garbage", Some(Fault::Garbage { applied: true })).await;
    assert_in_review(&garbage, PAYOUT, "a 200 that is not JSON (applied)");

    let refused = pay_under(
        &app,
        &wallet,
        "refused",
        Some(Fault::Refuse(RefusalCode::LimitExceeded)),
    )
    .await;
    assert_eq!(
        refused.operation["state"], "manual_review",
        "a refused payout is still owed: staff take it: {:#}",
        refused.operation
    );
    assert_eq!(
        refused.ticket["status"], "cashed_out",
        "still owed: {:#}",
        refused.ticket
    );
    assert!(refused.ticket["settledAt"].is_null(), "{:#}", refused.ticket);
    assert_eq!(refused.calls, (1, 1), "a refused payout is not sent again");
    assert_eq!(refused.balance, 0);

    let clean = pay_under(&app, &wallet, "clean", None).await;
    assert_eq!(clean.operation["state"], "applied", "{:#}", clean.operation);
    assert!(!clean.ticket["settledAt"].is_null(), "{:#}", clean.ticket);
    assert_eq!(clean.calls, (1, 1));
    assert_eq!(clean.balance, PAYOUT);

    let reviews = deliveries(&app, "eventType=mini_app.wallet_operation.manual_review_required").await;
    assert_eq!(
        reviews.len(),
        4,
        "one review event per ambiguous or refused payout: {reviews:#?}"
    );
    let cashed = deliveries(&app, "eventType=mini_app.flight.ticket.cashed_out").await;
    assert_eq!(cashed.len(), 5, "one cash-out event per ticket: {cashed:#?}");

    let listed = crate::admin_settlement::admin(&app, &["review", "list"]).await;
    let rows = listed["data"].as_array().expect("data");
    let flows: Vec<&str> = rows.iter().filter_map(|operation| operation["flow"].as_str()).collect();
    assert_eq!(flows, vec!["flight_ticket_payout"; 4], "{listed:#}");
    let reasons: Vec<&str> = rows
        .iter()
        .filter_map(|operation| operation["reviewReason"].as_str())
        .collect();
    assert_eq!(
        reasons,
        ["ambiguous", "ambiguous", "ambiguous", "refused_credit"],
        "{listed:#}"
    );
    let refused_row = &rows[3];
    assert_eq!(refused_row["refusalCode"], "limit_exceeded", "{listed:#}");
    assert_eq!(refused_row["amountOwed"], PAYOUT.to_string(), "{listed:#}");
}

/// A flight instance whose operator is enabled and subscribes an endpoint to the events
/// of a payout (deliveries are recorded whether or not they are ever sent).
async fn spawn_flight_app_with_events() -> TestApp {
    let app = crate::flight_support::spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    register(
        &app,
        &app.operator,
        "https://payout-events.example.invalid/",
        &[
            "mini_app.flight.ticket.cashed_out",
            "mini_app.wallet_operation.manual_review_required",
        ],
    )
    .await;
    app
}
