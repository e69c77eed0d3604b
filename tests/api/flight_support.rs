//! Fixtures of the flight tests: an instance that drives short flights, an operator
//! enabled for flight over its simulated wallet (an IDR test player, a passed wallet
//! test, first terms) and its players launched into the flight product.

use opinion_app::flight::EnableOutcome;
use opinion_flight::{Rupiah, SettlementPeriod, ShareBps, Terms, TicketLimits};
use reqwest::Method;
use serde_json::json;

use crate::helpers::{TestApp, TestOperator, json_with_status, spawn_configured_app};
use crate::simulator_support::{connect, simulated_user};

/// Who enables flight and sets terms in these tests.
pub const PLATFORM_STAFF: &str = "ops@platform.example";

/// The share every test operator's terms freeze on its tickets.
pub const SHARE_BPS: u16 = 1_500;

/// An instance that drives flights: a two-second boarding (a loaded machine still catches
/// it with time to buy), a short pause and a fast tick.
pub async fn spawn_flight_app() -> TestApp {
    spawn_flight_app_boarding(2_000).await
}

/// An instance that drives flights boarding for `boarding_ms`: for a test that sends
/// several purchases in one boarding, which a loaded machine may not fit in two seconds.
pub async fn spawn_flight_app_boarding(boarding_ms: u64) -> TestApp {
    spawn_configured_app(|config| opinion::config::Config {
        flight_driver: true,
        flight_boarding_ms: boarding_ms,
        flight_pause_ms: 200,
        flight_tick_ms: 20,
        flight_chain_length: 1_000,
        ..config
    })
    .await
}

/// Rupiah from a literal.
pub fn rupiah(value: i64) -> Rupiah {
    Rupiah::new(value).expect("rupiah")
}

/// The terms of every test operator: stakes of 1,000 to 1,000,000 rupiah, a maximum
/// payout of 100,000,000, two tickets per flight, a 15% share.
pub fn test_terms() -> Terms {
    let limits = TicketLimits::new(rupiah(1_000), rupiah(1_000_000), rupiah(100_000_000), 2).expect("limits");
    Terms::new(
        ShareBps::new(SHARE_BPS).expect("share"),
        limits,
        SettlementPeriod::CalendarMonth,
        15,
    )
    .expect("terms")
}

/// Makes `operator` (holding `key`, a `*` key) flight-ready as an operator would in
/// staging, then enables it: its wallet adapter is its simulated wallet, the wallet test
/// passes with the flight reasons in IDR, platform staff set its first terms and enable it.
pub async fn enable_flight(app: &TestApp, operator: &TestOperator) {
    simulated_user(app, &operator.key, "opinion-wallet-test", 10_000).await;
    simulated_idr_user(app, &operator.key, "opinion-wallet-test-idr", 50_000).await;
    connect(app, &operator.key, 2_000).await;
    let report = json_with_status(
        app.post("/api/operator/wallet-adapter/test", &operator.key, &json!({}))
            .await,
        200,
    )
    .await;
    assert_eq!(report["verdict"], "passed", "{report:#}");
    app.flight
        .set_first_terms(operator.id, test_terms(), PLATFORM_STAFF)
        .await
        .expect("terms");
    let outcome = app.flight.enable(operator.id, PLATFORM_STAFF).await.expect("enable");
    assert!(matches!(outcome, EnableOutcome::Enabled(_)), "{outcome:?}");
}

/// Creates a simulated player holding `balance` rupiah in its IDR wallet.
pub async fn simulated_idr_user(app: &TestApp, key: &str, external_user_id: &str, balance: i64) {
    let body = json!({
        "externalUserId": external_user_id,
        "currency": "IDR",
        "startingBalance": balance.to_string(),
    });
    json_with_status(app.post("/api/operator/simulator/users", key, &body).await, 201).await;
}

/// Launches `external_user_id` of `operator` into the flight product and opens its
/// player session; returns the session token.
pub async fn flight_player(app: &TestApp, operator: &TestOperator, external_user_id: &str) -> String {
    let launched = json_with_status(
        app.post(
            "/api/operator/launch",
            &operator.key,
            &json!({"externalUserId": external_user_id, "product": "flight"}),
        )
        .await,
        201,
    )
    .await;
    let token = launched["launchToken"].as_str().expect("launchToken");
    let opened = app
        .request(Method::POST, "/api/player/sessions", None)
        .json(&json!({ "launchToken": token }))
        .send()
        .await
        .expect("request");
    let session = json_with_status(opened, 201).await;
    assert_eq!(session["product"], "flight", "{session}");
    session["sessionToken"].as_str().expect("sessionToken").to_owned()
}

/// The longest [`boarding_flight`] waits for a flight to board.
const BOARDING_WAIT: std::time::Duration = std::time::Duration::from_secs(300);

/// Waits until the live flight is boarding with at least 800 ms of its boarding left (so
/// a purchase sent now lands before take-off on a loaded machine), and answers it. The
/// flight in the air when the wait starts may fly long: the curve passes 36× at 60 s,
/// and about one flight in 37 crashes above that, so the wait allows `BOARDING_WAIT`
/// (the curve passes 60,000,000× at 300 s).
pub async fn boarding_flight(app: &TestApp, session: &str) -> serde_json::Value {
    let instant = |live: &serde_json::Value, field: &str| {
        live[field]
            .as_str()
            .and_then(|text| time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok())
    };
    let deadline = std::time::Instant::now() + BOARDING_WAIT;
    while std::time::Instant::now() < deadline {
        let live = json_with_status(app.get("/api/player/flight", session).await, 200).await;
        let left = instant(&live, "takeOffAt")
            .zip(instant(&live, "serverTime"))
            .map(|(off, now)| off - now);
        if live["phase"] == "boarding" && left.is_some_and(|left| left >= time::Duration::milliseconds(800)) {
            return live;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!(
        "no flight boarded with time to buy within {} s",
        BOARDING_WAIT.as_secs()
    );
}

/// Buys a ticket of `stake` rupiah with an auto cash-out at 1.01× on each boarding flight
/// until one is cashed out (a flight crashing at 1.00× loses it); that ticket as its
/// player reads it.
pub async fn cashed_out_ticket(app: &TestApp, session: &str, stake: &str) -> serde_json::Value {
    for attempt in 0..6 {
        boarding_flight(app, session).await;
        let order = json!({"clientTicketId": format!("auto-{attempt}"), "stake": stake, "autoCashOut": "1.01"});
        let ticket = json_with_status(app.post("/api/player/flight/tickets", session, &order).await, 200).await;
        for _ in 0..500 {
            let mine = json_with_status(app.get("/api/player/flight/tickets", session).await, 200).await;
            let now = mine["data"]
                .as_array()
                .and_then(|tickets| tickets.iter().find(|t| t["id"] == ticket["id"]))
                .cloned()
                .expect("the ticket");
            match now["status"].as_str() {
                Some("cashed_out") => return now,
                Some("pending" | "active") => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
                _ => break,
            }
        }
    }
    panic!("no ticket was cashed out in six flights");
}
