//! Production authorization, black box: an instance configured as production (its
//! wallet calls reaching a `FakeWallet` on the loopback address), platform staff's
//! admin command run as the real binary in production. The wallet test's flight section
//! makes no wallet call until the operator is authorized; enabling is refused without
//! an authorization and a passed flight section; once authorized, tested and enabled
//! players buy; a revocation refuses every new ticket before the wallet hears of it
//! while a bought ticket still settles; an expiry stops tickets at its instant.

use std::process::Command;
use std::time::Duration;

use opinion::startup::WalletReach;
use opinion_app::flight::{EnableOutcome, NewProductionAuthorization};
use opinion_testkit::FakeWallet;
use opinion_wallet::WalletFlow;
use reqwest::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::flight_steps::{buy, pay_until_settled, wait_ticket};
use crate::flight_support::{PLATFORM_STAFF, boarding_flight, flight_player, test_terms};
use crate::helpers::{
    TEST_DATA_KEY, TEST_STATEMENT_KEY, TestApp, assert_problem, json_with_status, spawn_production_app_reaching,
};

/// The IDR test player of the wallet test's flight section.
const FLIGHT_TEST_PLAYER: &str = "opinion-wallet-test-idr";

/// A production instance that drives short flights, its operator's wallet a `FakeWallet`
/// with the wallet test's players (the flight one in IDR), with terms in force and IDR
/// accounts for `players`; not authorized, the wallet test not run, flight not enabled.
async fn production_flight_app(players: &[&str]) -> (TestApp, FakeWallet) {
    production_flight_app_boarding(players, 2_000).await
}

/// `production_flight_app` whose flights board for `boarding_ms`.
pub async fn production_flight_app_boarding(players: &[&str], boarding_ms: u64) -> (TestApp, FakeWallet) {
    let app = spawn_production_app_reaching(WalletReach::AnyAddress, |config| opinion::config::Config {
        flight_driver: true,
        flight_boarding_ms: boarding_ms,
        flight_pause_ms: 200,
        flight_tick_ms: 20,
        flight_chain_length: 1_000,
        ..config
    })
    .await;
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
    wallet.set_balance("opinion-wallet-test", 10_000);
    wallet.open_account(FLIGHT_TEST_PLAYER, 50_000, "IDR");
    for player in players {
        wallet.open_account(player, 1_000_000, "IDR");
    }
    app.flight
        .set_first_terms(app.operator.id, test_terms(), PLATFORM_STAFF)
        .await
        .expect("terms");
    (app, wallet)
}

/// Runs the full-contract wallet test, whose Opinion section passes; the report.
pub async fn wallet_test(app: &TestApp) -> Value {
    let report = json_with_status(
        app.post("/api/operator/wallet-adapter/test", &app.operator.key, &json!({}))
            .await,
        200,
    )
    .await;
    assert_eq!(report["verdict"], "passed", "{report:#}");
    report
}

/// The wallet test's flight verdict, that must be `expected`.
pub fn assert_flight_verdict(report: &Value, expected: &str) {
    assert_eq!(report["products"]["flight"], expected, "{report:#}");
    assert_eq!(report["flight"]["verdict"], expected, "{report:#}");
}

/// The mutations the `FakeWallet` received that concern flight money: in IDR, of a
/// flight flow, or for the flight test player.
fn flight_calls(wallet: &FakeWallet) -> Vec<String> {
    wallet
        .ledger()
        .into_iter()
        .map(|entry| entry.body)
        .filter(|body| body.contains("\"IDR\"") || body.contains("flight_ticket") || body.contains(FLIGHT_TEST_PLAYER))
        .collect()
}

/// The codes of what blocks enabling, from `opinion admin flight status`.
async fn blockers(app: &TestApp) -> Vec<String> {
    let operator = app.operator.id.to_string();
    let status = admin_ok(app, &["status", "--operator", &operator]).await;
    status["blockers"]
        .as_array()
        .expect("blockers")
        .iter()
        .map(|blocker| blocker["code"].as_str().expect("code").to_owned())
        .collect()
}

/// `opinion admin flight <args>` as the real binary, configured as production over the
/// app's database; the output and whether it succeeded.
async fn admin_in_production(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_opinion"));
    command
        .args(["admin", "flight"])
        .args(args)
        .env("OPINION_ENV", "production")
        .env("DATABASE_URL", app.db.url())
        .env(
            "OPINION_SESSION_SECRET",
            "admin test secret of at least thirty-two bytes",
        )
        .env("OPINION_DATA_KEY", TEST_DATA_KEY)
        .env("OPINION_STATEMENT_SIGNING_KEY", TEST_STATEMENT_KEY)
        .env("RUST_LOG", "warn");
    let output = tokio::task::spawn_blocking(move || command.output().expect("ran the binary"))
        .await
        .expect("joined");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `admin_in_production` that must succeed; the JSON it printed.
async fn admin_ok(app: &TestApp, args: &[&str]) -> Value {
    let (ok, stdout, stderr) = admin_in_production(app, args).await;
    assert!(ok, "{stderr}");
    serde_json::from_str(&stdout).expect("one JSON object on stdout")
}

/// The wallet calls the `FakeWallet` received for `player`, by flow.
fn calls_for(wallet: &FakeWallet, player: &str) -> Vec<WalletFlow> {
    wallet
        .ledger()
        .into_iter()
        .filter_map(|entry| entry.request)
        .filter(|request| request.external_user_id == player)
        .map(|request| request.flow)
        .collect()
}

async fn overview_authorization(app: &TestApp) -> Value {
    let overview = json_with_status(app.get("/api/operator/flight/overview", &app.operator.key).await, 200).await;
    overview["productionAuthorization"].clone()
}

#[tokio::test]
async fn production_refuses_flight_until_authorized_and_a_revocation_stops_new_tickets_while_bought_ones_settle() {
    let (app, wallet) = production_flight_app(&["player-1", "player-2"]).await;
    let operator = app.operator.id.to_string();
    assert_flight_verdict(&wallet_test(&app).await, "not_run");

    let (enabled, _, refusal) = admin_in_production(&app, &["enable", "--operator", &operator, "--by", "Ops"]).await;
    assert!(!enabled, "enabling without an authorization is refused");
    assert!(refusal.contains("production_authorization_missing"), "{refusal}");
    let status = admin_ok(&app, &["status", "--operator", &operator]).await;
    assert_eq!(status["enabled"], false, "{status:#}");
    assert_eq!(status["blockers"][1]["code"], "production_authorization_missing");
    assert_eq!(status["productionAuthorization"]["required"], true);
    assert_eq!(status["productionAuthorization"]["authorized"], false);
    assert_eq!(
        overview_authorization(&app).await,
        json!({"required": true, "authorized": false, "reference": null,
               "authorizedAt": null, "expiresAt": null, "revokedAt": null})
    );

    let recorded = admin_ok(
        &app,
        &[
            "authorize-production",
            "--operator",
            &operator,
            "--reference",
            "CHG-2026-118",
            "--by",
            "compliance@platform.example",
        ],
    )
    .await;
    assert_eq!(recorded["authorization"]["reference"], "CHG-2026-118", "{recorded:#}");
    assert_eq!(recorded["authorization"]["recordedBy"], "compliance@platform.example");
    assert_eq!(recorded["productionAuthorization"]["state"], "authorized");
    assert_flight_verdict(&wallet_test(&app).await, "passed");
    let enabled = admin_ok(&app, &["enable", "--operator", &operator, "--by", "Ops"]).await;
    assert_eq!(enabled["enabled"], true, "{enabled:#}");
    let shown = overview_authorization(&app).await;
    assert_eq!(
        (shown["authorized"].clone(), shown["reference"].clone()),
        (json!(true), json!("CHG-2026-118"))
    );
    assert!(
        shown["authorizedAt"].is_string() && shown["revokedAt"].is_null(),
        "{shown}"
    );
    assert!(
        !shown.to_string().contains("compliance@"),
        "operators never see who recorded it: {shown}"
    );

    let first = flight_player(&app, &app.operator, "player-1").await;
    boarding_flight(&app, &first).await;
    let bought = json_with_status(buy(&app, &first, "before-revocation", "10000", Some("1.01")).await, 200).await;
    let ticket_id = bought["id"].as_str().expect("ticket id").to_owned();
    assert_eq!(calls_for(&wallet, "player-1"), [WalletFlow::FlightTicketPurchase]);

    let revoked = admin_ok(
        &app,
        &[
            "revoke-production",
            "--operator",
            &operator,
            "--by",
            "ops@platform.example",
        ],
    )
    .await;
    assert_eq!(revoked["revoked"], 1, "{revoked:#}");
    assert_eq!(revoked["productionAuthorization"]["state"], "missing");
    assert_eq!(
        revoked["productionAuthorization"]["records"][0]["revokedBy"],
        "ops@platform.example"
    );

    let second = flight_player(&app, &app.operator, "player-2").await;
    boarding_flight(&app, &second).await;
    assert_problem(
        buy(&app, &second, "after-revocation", "10000", None).await,
        409,
        "production_authorization_missing",
    )
    .await;
    assert_problem(
        buy(&app, &first, "again-after-revocation", "10000", None).await,
        409,
        "production_authorization_missing",
    )
    .await;
    assert_eq!(
        calls_for(&wallet, "player-2"),
        [],
        "the wallet heard nothing of the refused ticket"
    );
    let mine = json_with_status(app.get("/api/player/flight/tickets", &second).await, 200).await;
    assert_eq!(mine["data"], json!([]), "nothing was stored");

    let decided = wait_ticket(&app, &app.operator.key, &ticket_id, |ticket| {
        ticket["status"] == "cashed_out" || ticket["status"] == "lost"
    })
    .await;
    let settled = pay_until_settled(&app, &app.operator.key, &ticket_id).await;
    if decided["status"] == "cashed_out" {
        assert_eq!(
            calls_for(&wallet, "player-1"),
            [WalletFlow::FlightTicketPurchase, WalletFlow::FlightTicketPayout],
            "the ticket bought before the revocation is paid: {settled:#}"
        );
        assert_eq!(wallet.balance("player-1"), Some(1_000_000 - 10_000 + 10_100));
    } else {
        assert_eq!(calls_for(&wallet, "player-1"), [WalletFlow::FlightTicketPurchase]);
    }
    let shown = overview_authorization(&app).await;
    assert_eq!(shown["authorized"], false, "{shown}");
    assert_eq!(shown["reference"], "CHG-2026-118");
    assert!(shown["revokedAt"].is_string(), "{shown}");
}

#[tokio::test]
async fn a_production_authorization_stops_tickets_at_its_expiry() {
    let (app, wallet) = production_flight_app(&["player-1"]).await;
    let authorization = |reference: &str, expires_at| NewProductionAuthorization {
        reference: reference.into(),
        expires_at,
    };
    app.flight
        .authorize_production(app.operator.id, &authorization("CHG-2026-119", None), PLATFORM_STAFF)
        .await
        .expect("authorized");
    assert_flight_verdict(&wallet_test(&app).await, "passed");
    let outcome = app
        .flight
        .enable(app.operator.id, PLATFORM_STAFF)
        .await
        .expect("enable");
    assert!(matches!(outcome, EnableOutcome::Enabled(_)), "{outcome:?}");
    app.flight
        .revoke_production(app.operator.id, PLATFORM_STAFF)
        .await
        .expect("revoked");

    // A renewal that expires two seconds after the flight boards, recorded as it boards.
    let session = flight_player(&app, &app.operator, "player-1").await;
    boarding_flight(&app, &session).await;
    let expires_at = (OffsetDateTime::now_utc() + time::Duration::seconds(3))
        .replace_nanosecond(0)
        .expect("whole seconds");
    app.flight
        .authorize_production(
            app.operator.id,
            &authorization("CHG-2026-120", Some(expires_at)),
            PLATFORM_STAFF,
        )
        .await
        .expect("renewed");
    json_with_status(buy(&app, &session, "before-expiry", "10000", None).await, 200).await;
    let shown = overview_authorization(&app).await;
    assert_eq!(shown["reference"], "CHG-2026-120", "{shown}");
    assert_eq!(shown["expiresAt"], expires_at.format(&Rfc3339).expect("format"));

    let left = expires_at - OffsetDateTime::now_utc();
    tokio::time::sleep(Duration::try_from(left).unwrap_or_default() + Duration::from_millis(50)).await;
    boarding_flight(&app, &session).await;
    assert_problem(
        buy(&app, &session, "after-expiry", "10000", None).await,
        409,
        "production_authorization_missing",
    )
    .await;
    assert_eq!(calls_for(&wallet, "player-1"), [WalletFlow::FlightTicketPurchase]);
    let shown = overview_authorization(&app).await;
    assert_eq!(
        (shown["authorized"].clone(), shown["reference"].clone()),
        (json!(false), json!("CHG-2026-120"))
    );
}

#[tokio::test]
async fn the_wallet_test_moves_no_flight_money_until_authorized_then_its_flight_section_passes_and_enable_works() {
    let (app, wallet) = production_flight_app(&[]).await;
    let operator = app.operator.id.to_string();

    let report = wallet_test(&app).await;
    assert_flight_verdict(&report, "not_run");
    assert_eq!(
        report["flight"]["notRun"]["reason"], "production_authorization_missing",
        "{report:#}"
    );
    assert!(report["flight"]["notRun"]["detail"].is_string(), "{report:#}");
    assert_eq!(report["flight"]["checks"], json!([]));
    assert_eq!(report["flight"]["cleanup"], json!([]));
    assert!(
        !report["checks"].as_array().expect("checks").is_empty(),
        "Opinion's section ran"
    );
    assert_eq!(
        flight_calls(&wallet),
        Vec::<String>::new(),
        "the wallet heard no flight call"
    );
    assert!(!wallet.ledger().is_empty(), "Opinion's calls reached the wallet");
    assert_eq!(wallet.balance(FLIGHT_TEST_PLAYER), Some(50_000));
    assert_eq!(
        blockers(&app).await,
        ["flight_wallet_test_not_passed", "production_authorization_missing"],
        "both are named"
    );

    admin_ok(
        &app,
        &[
            "authorize-production",
            "--operator",
            &operator,
            "--reference",
            "CHG-2026-121",
            "--by",
            "compliance@platform.example",
        ],
    )
    .await;
    assert_eq!(
        blockers(&app).await,
        ["flight_wallet_test_not_passed"],
        "the section that did not run has not passed"
    );
    let (enabled, _, refusal) = admin_in_production(&app, &["enable", "--operator", &operator, "--by", "Ops"]).await;
    assert!(
        !enabled && refusal.contains("flight_wallet_test_not_passed"),
        "{refusal}"
    );

    let report = wallet_test(&app).await;
    assert_flight_verdict(&report, "passed");
    assert_eq!(report["flight"]["notRun"], Value::Null, "{report:#}");
    assert!(
        !flight_calls(&wallet).is_empty(),
        "the flight section called the wallet"
    );
    assert_eq!(wallet.balance(FLIGHT_TEST_PLAYER), Some(50_000), "it nets to zero");
    let enabled = admin_ok(&app, &["enable", "--operator", &operator, "--by", "Ops"]).await;
    assert_eq!(enabled["enabled"], true, "{enabled:#}");

    admin_ok(&app, &["revoke-production", "--operator", &operator, "--by", "Ops"]).await;
    let calls_before = flight_calls(&wallet).len();
    assert_flight_verdict(&wallet_test(&app).await, "not_run");
    assert_eq!(
        flight_calls(&wallet).len(),
        calls_before,
        "no flight call after the revocation"
    );
}
