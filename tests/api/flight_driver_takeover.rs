//! Two instances drive flights over one database; exactly one holds the driver lock.
//! Killing it (its task aborted, its database sessions terminated, as a dead process)
//! hands the lock to the other within seconds: a flight in the air is resumed exactly
//! (auto cash-outs at their instants, the crash at its planned instant), a flight still
//! boarding is cancelled and every ticket refunded once, and the flights keep coming. An
//! instance whose `run` future is dropped, or that is shut down as by SIGTERM, leaves no
//! loop behind and hands the lock over the same way.

use std::time::Duration;

use opinion_flight::{Multiplier, first_ms_at};
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::flight_db;
use crate::flight_steps::*;
use crate::flight_support::{enable_flight, flight_player, simulated_idr_user};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::instance::Instance;

/// How long a take-over may take: the survivor retries the lock every second.
const TAKE_OVER: Duration = Duration::from_secs(5);

/// The driving configuration of both instances.
fn driving(config: opinion::config::Config) -> opinion::config::Config {
    opinion::config::Config {
        flight_driver: true,
        flight_boarding_ms: 2_000,
        flight_pause_ms: 200,
        flight_tick_ms: 20,
        flight_chain_length: 1_000,
        ..config
    }
}

/// An app that does not drive (the players' and the operator's calls go to it), an
/// enabled operator, and two driving instances.
async fn two_drivers() -> (TestApp, Instance, Instance) {
    let app = spawn_app().await;
    enable_flight(&app, &app.operator).await;
    let a = Instance::start(&app.db, "driver_a", driving).await;
    let b = Instance::start(&app.db, "driver_b", driving).await;
    (app, a, b)
}

/// Waits until instance `name` holds the driver lock, then watches it for a second
/// more; `gone` (a stopped or killed instance) must never hold it meanwhile. Answers how
/// long the take-over took.
async fn wait_holder(app: &TestApp, name: &str, gone: &str) -> Duration {
    let mut db = flight_db::connect(app).await;
    let started = tokio::time::Instant::now();
    loop {
        let holder = flight_db::driver_lock_holder(&mut db).await;
        assert_ne!(holder.as_deref(), Some(gone), "a stopped instance drives again");
        if holder.as_deref() == Some(name) {
            let took = started.elapsed();
            for _ in 0..50 {
                tokio::time::sleep(Duration::from_millis(20)).await;
                let holder = flight_db::driver_lock_holder(&mut db).await;
                assert_eq!(holder.as_deref(), Some(name), "the lock moved on after the take-over");
            }
            return took;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{name} never took the lock"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The instance holding the lock and the other one.
async fn holder_and_other(app: &TestApp, a: Instance, b: Instance) -> (Instance, Instance) {
    let mut db = flight_db::connect(app).await;
    for _ in 0..1_500 {
        match flight_db::driver_lock_holder(&mut db).await.as_deref() {
            Some("driver_a") => return (a, b),
            Some("driver_b") => return (b, a),
            _ => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    panic!("neither instance took the driver lock");
}

fn instant(value: &Value) -> OffsetDateTime {
    OffsetDateTime::parse(value.as_str().unwrap_or_else(|| panic!("a time: {value}")), &Rfc3339).expect("RFC 3339")
}

async fn player(app: &TestApp, name: &str) -> String {
    simulated_idr_user(app, &app.operator.key, name, 100_000).await;
    flight_player(app, &app.operator, name).await
}

/// Asserts the instance at `address` answers nothing any more.
async fn is_dead(app: &TestApp, address: &str) {
    let answer = app
        .client
        .get(format!("{address}/health"))
        .timeout(Duration::from_secs(2))
        .send()
        .await;
    assert!(answer.is_err(), "the killed instance still answers: {answer:?}");
}

#[tokio::test]
async fn a_driver_killed_in_flight_is_taken_over_and_the_flight_crashes_exactly_as_planned() {
    let (app, a, b) = two_drivers().await;
    let key = app.operator.key.clone();
    let session = player(&app, "kim").await;
    // A flight in the air for 2 to 20 s: long enough to die in it and be taken over.
    let (flight_id, plan) = suitable_flight(
        &app,
        &session,
        Duration::from_secs(2)..Duration::from_secs(20),
        Duration::from_millis(800),
    )
    .await;
    let target: Multiplier = "1.06".parse().expect("target");
    let flying = json_with_status(buy(&app, &session, "flying", "10000", None).await, 200).await;
    let auto = json_with_status(buy(&app, &session, "auto", "10000", Some("1.06")).await, 200).await;
    assert_eq!(
        (&flying["status"], &auto["status"]),
        (&"active".into(), &"active".into())
    );
    wait_take_off(&app, &session, &flight_id.clone().into()).await;

    // Die in the air, before the auto cash-out's instant (972 ms after take-off).
    let (dead, survivor) = holder_and_other(&app, a, b).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    let (dead_name, dead_address) = (dead.name.clone(), dead.address.clone());
    dead.kill().await;
    let took = wait_holder(&app, &survivor.name, &dead_name).await;
    assert!(took < TAKE_OVER, "the take-over took {took:?}");
    is_dead(&app, &dead_address).await;

    // The flight resumes exactly: the auto cash-out at its instant, the crash at its own.
    let auto_id = auto["id"].as_str().expect("id");
    let flying_id = flying["id"].as_str().expect("id");
    let lost = wait_ticket(&app, &key, flying_id, |ticket| ticket["status"] != "active").await;
    assert_eq!(lost["status"], "lost", "{lost:#}");
    let cashed = pay_until_settled(&app, &key, auto_id).await;
    assert_eq!(cashed["status"], "cashed_out", "{cashed:#}");
    assert_eq!(cashed["cashOutMultiplier"], "1.06", "{cashed:#}");
    assert_eq!(rupiah_of(&cashed["payout"]), 10_600, "{cashed:#}");
    let reached_at = plan.take_off_at + time::Duration::milliseconds(first_ms_at(target) as i64);
    assert_eq!(instant(&cashed["cashedOutAt"]), reached_at, "{cashed:#}");
    let flight = json_with_status(
        app.get(&format!("/api/operator/flight/flights/{flight_id}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(flight["phase"], "crashed", "{flight:#}");
    assert_eq!(hundredths(&flight["crashPoint"]), plan.crash_hundredths, "{flight:#}");
    assert_eq!(instant(&flight["crashedAt"]), plan.crash_at, "{flight:#}");
    assert_eq!(instant(&flight["takeOffAt"]), plan.take_off_at, "{flight:#}");

    // Nothing paid twice; the flights keep coming, driven by the survivor.
    let mut db = flight_db::connect(&app).await;
    assert_eq!(
        flight_db::operations_of(&mut db, auto_id, "flight_ticket_payout").await,
        1
    );
    assert_eq!(
        flight_db::operations_of(&mut db, flying_id, "flight_ticket_payout").await,
        0
    );
    assert_eq!(
        flight_db::events_of(&mut db, auto_id, "mini_app.flight.ticket.cashed_out").await,
        1
    );
    assert_eq!(
        flight_db::events_of(&mut db, flying_id, "mini_app.flight.ticket.lost").await,
        1
    );
    let number = flight["number"].as_u64().expect("number");
    wait_crashed_from(&app, &key, number + 1).await;
    assert_eq!(
        flight_db::driver_lock_holder(&mut db).await.as_deref(),
        Some(survivor.name.as_str())
    );
    survivor.shut_down().await.expect("a clean shutdown");
}

#[tokio::test]
async fn a_driver_killed_while_boarding_leaves_its_flight_cancelled_and_every_ticket_refunded_once() {
    let (app, a, b) = two_drivers().await;
    let key = app.operator.key.clone();
    let kim = player(&app, "kim").await;
    let lee = player(&app, "lee").await;
    let (flight_id, plan) =
        suitable_flight(&app, &kim, Duration::ZERO..Duration::MAX, Duration::from_millis(1_200)).await;
    let first = json_with_status(buy(&app, &kim, "first", "10000", None).await, 200).await;
    let second = json_with_status(buy(&app, &lee, "second", "20000", Some("2.00")).await, 200).await;

    let (dead, survivor) = holder_and_other(&app, a, b).await;
    let dead_name = dead.name.clone();
    dead.kill().await;
    assert!(OffsetDateTime::now_utc() < plan.take_off_at, "killed after take-off");
    let took = wait_holder(&app, &survivor.name, &dead_name).await;
    assert!(took < TAKE_OVER, "the take-over took {took:?}");

    let mut db = flight_db::connect(&app).await;
    for (ticket, player, stake) in [(&first, "kim", 10_000), (&second, "lee", 20_000)] {
        assert_eq!(ticket["status"], "active", "{ticket:#}");
        let id = ticket["id"].as_str().expect("id");
        let refunded = pay_until_settled(&app, &key, id).await;
        assert_eq!(refunded["status"], "refunded", "{refunded:#}");
        assert_eq!(refunded["refundReason"], "flight_cancelled", "{refunded:#}");
        assert!(refunded["payout"].is_null(), "{refunded:#}");
        assert_eq!(flight_db::operations_of(&mut db, id, "flight_ticket_refund").await, 1);
        assert_eq!(flight_db::operations_of(&mut db, id, "flight_ticket_payout").await, 0);
        assert_eq!(
            flight_db::events_of(&mut db, id, "mini_app.flight.ticket.refunded").await,
            1
        );
        assert_eq!(
            flight_db::events_of(&mut db, id, "mini_app.flight.ticket.lost").await,
            0
        );
        let operations = all_pages(
            &app,
            &key,
            &format!("/api/operator/flight/wallet-operations?ticketId={id}&flow=flight_ticket_refund"),
        )
        .await;
        assert_eq!(operations.len(), 1, "{operations:#?}");
        assert_eq!(operations[0]["state"], "applied", "{operations:#?}");
        assert_eq!(rupiah_of(&operations[0]["amount"]), stake, "{operations:#?}");
        assert_eq!(
            operations[0]["metadata"]["refundOf"], refunded["purchaseOperationId"],
            "{operations:#?}"
        );
        let wallet = simulated_wallet(&app, &key, player).await;
        assert_eq!(rupiah_of(&wallet["balance"]), 100_000, "{wallet:#}");
    }
    let flight = json_with_status(
        app.get(&format!("/api/operator/flight/flights/{flight_id}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(flight["phase"], "cancelled", "{flight:#}");
    assert!(flight["cancelledAt"].is_string(), "{flight:#}");
    assert!(flight["seed"].is_null() && flight["crashPoint"].is_null(), "{flight:#}");

    let number = flight["number"].as_u64().expect("number");
    wait_crashed_from(&app, &key, number + 1).await;
    survivor.shut_down().await.expect("a clean shutdown");
}

#[tokio::test]
async fn a_driver_dropped_or_shut_down_leaves_no_loop_behind_and_hands_the_lock_over() {
    let (app, a, b) = two_drivers().await;
    let key = app.operator.key.clone();

    // Its `run` future dropped (nothing else done): the driver loop and its lease go too.
    let (holder, other) = holder_and_other(&app, a, b).await;
    let holder_name = holder.name.clone();
    holder.abort().await;
    let took = wait_holder(&app, &other.name, &holder_name).await;
    assert!(took < TAKE_OVER, "the take-over took {took:?}");

    // Shut down as SIGTERM does: `run` returns and the lock goes to the next instance.
    let third = Instance::start(&app.db, "driver_c", driving).await;
    let page = json_with_status(app.get("/api/operator/flight/flights?limit=1", &key).await, 200).await;
    let number = page["data"][0]["number"].as_u64().unwrap_or(0);
    let other_name = other.name.clone();
    other.shut_down().await.expect("a clean shutdown");
    let took = wait_holder(&app, &third.name, &other_name).await;
    assert!(took < TAKE_OVER, "the take-over took {took:?}");
    wait_crashed_from(&app, &key, number + 1).await;
    third.shut_down().await.expect("a clean shutdown");
}
