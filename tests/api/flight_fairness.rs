//! The player's fairness data (`GET /api/player/flight/flights`) and the published seed
//! chains (`GET /api/public/flight/chains`): crashed flights only, newest first in pages,
//! each with what verifies it; the chain's commitment and salt served to anyone and equal
//! to its flights'; hostile input refused as problems; and a flight the driver plays
//! shows up only once crashed, verifying with the published script against the chain the
//! public route served.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fairness_script::run_verifier;
use crate::flight_reads_seed::{Chain, SALT, given_flights};
use crate::flight_support::{enable_flight, flight_player, spawn_flight_app};
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_seed::seeder;

/// A flight player of the first operator, with flights 1 to 3 of the seeded chain crashed
/// and flight 4 in the air.
async fn given_played_chain(app: &TestApp) -> (Chain, String) {
    enable_flight(app, &app.operator).await;
    let session = flight_player(app, &app.operator, "rina").await;
    let chain = Chain::new();
    given_flights(&mut seeder(app).await, &chain, 3).await;
    (chain, session)
}

/// `GET path` without any credential.
async fn anonymous(app: &TestApp, path: &str) -> reqwest::Response {
    app.request(reqwest::Method::GET, path, None)
        .send()
        .await
        .expect("request")
}

/// Runs the verification script on `flights`, pinned to the published `chain`, and
/// answers its output after checking it succeeded.
fn verified(flights: &[Value], chain: &Value) -> String {
    let commitment = chain["commitment"].as_str().expect("commitment");
    let salt = chain["salt"].as_str().expect("salt");
    let output = run_verifier(
        &["--commitment", commitment, "--salt", salt],
        &json!({ "data": flights }).to_string(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test]
async fn a_player_reads_the_crashed_flights_newest_first_in_pages_and_they_verify() {
    let app = spawn_app().await;
    let (chain, session) = given_played_chain(&app).await;

    let first = json_with_status(app.get("/api/player/flight/flights?limit=2", &session).await, 200).await;
    let numbers: Vec<&Value> = first["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|f| &f["number"])
        .collect();
    assert_eq!(numbers, [3, 2], "{first:#}");
    assert_eq!(first["hasMore"], true);
    let cursor = first["nextCursor"].as_str().expect("a next page");
    let rest = json_with_status(
        app.get(&format!("/api/player/flight/flights?limit=2&cursor={cursor}"), &session)
            .await,
        200,
    )
    .await;
    assert_eq!(rest["data"].as_array().map(Vec::len), Some(1), "{rest:#}");
    assert_eq!(
        (rest["hasMore"].clone(), rest["nextCursor"].clone()),
        (json!(false), Value::Null)
    );

    let flights: Vec<Value> = first["data"]
        .as_array()
        .into_iter()
        .chain(rest["data"].as_array())
        .flatten()
        .cloned()
        .collect();
    for flight in &flights {
        let number = u32::try_from(flight["number"].as_u64().expect("number")).expect("small");
        assert_eq!(flight["phase"], "crashed");
        assert_eq!(flight["seed"], chain.seed(number).to_hex(), "{flight}");
        assert_eq!(flight["crashPoint"], chain.crash_point(number), "{flight}");
        assert_eq!(
            (flight["commitment"].as_str(), flight["salt"].as_str()),
            (Some(chain.commitment().as_str()), Some(SALT))
        );
        assert!(flight["crashedAt"].is_string() && flight["takeOffAt"].is_string() && flight["boardingAt"].is_string());
    }

    let chain_id = flights[0]["chainId"].as_str().expect("chainId");
    let published = json_with_status(
        anonymous(&app, &format!("/api/public/flight/chains/{chain_id}")).await,
        200,
    )
    .await;
    assert_eq!(published["commitment"], chain.commitment());
    let stdout = verified(&flights, &published);
    assert_eq!(
        stdout.lines().filter(|line| line.starts_with("OK   flight ")).count(),
        3,
        "{stdout}"
    );
}

#[tokio::test]
async fn the_published_chain_needs_no_credential_and_matches_its_flights() {
    let app = spawn_app().await;
    let (chain, session) = given_played_chain(&app).await;

    let response = app
        .request(
            reqwest::Method::GET,
            "/api/public/flight/chains",
            Some("not-a-credential"),
        )
        .send()
        .await
        .expect("request");
    assert_eq!(response.headers()["cache-control"], "no-cache");
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let chains = json_with_status(response, 200).await;
    let listed = &chains["data"][0];
    assert_eq!(chains["data"].as_array().map(Vec::len), Some(1), "{chains:#}");
    assert_eq!(listed["commitment"], chain.commitment());
    assert_eq!(listed["salt"], SALT);
    assert_eq!(listed["length"], 10);
    assert_eq!(
        (listed["firstFlightNumber"].clone(), listed["lastFlightNumber"].clone()),
        (json!(1), json!(4))
    );
    assert!(
        listed["createdAt"].is_string() && listed.get("terminalSeed").is_none(),
        "{listed}"
    );

    let flights = json_with_status(app.get("/api/player/flight/flights", &session).await, 200).await;
    assert_eq!(flights["data"][0]["chainId"], listed["id"]);
    assert_eq!(flights["data"][0]["commitment"], listed["commitment"]);
    assert_eq!(flights["data"][0]["salt"], listed["salt"]);
    let id = listed["id"].as_str().expect("id");
    let one = json_with_status(anonymous(&app, &format!("/api/public/flight/chains/{id}")).await, 200).await;
    assert_eq!(&one, listed);

    let unknown = anonymous(&app, "/api/public/flight/chains/fch_01jdz3qv6mz8x5c0a2t5d4e7f9").await;
    assert_problem(unknown, 404, "not_found").await;
    assert_problem(
        anonymous(&app, "/api/public/flight/chains/flt_01jdz3qv6mz8x5c0a2t5d4e7f9").await,
        400,
        "invalid_id",
    )
    .await;
    assert_problem(
        anonymous(&app, "/api/public/flight/chains/nonsense").await,
        400,
        "invalid_id",
    )
    .await;
    for (query, code) in [
        ("limit=0", "invalid_limit"),
        ("limit=201", "invalid_limit"),
        ("limit=ten", "invalid_query"),
        ("cursor=bm9wZQ", "invalid_cursor"),
        ("colour=red", "invalid_query"),
    ] {
        assert_problem(
            anonymous(&app, &format!("/api/public/flight/chains?{query}")).await,
            400,
            code,
        )
        .await;
    }
}

#[tokio::test]
async fn the_players_flights_refuse_hostile_input_and_a_missing_session() {
    let app = spawn_app().await;
    let (_, session) = given_played_chain(&app).await;
    let foreign = opinion_core::Cursor::after(opinion_core::TicketId::from_u128(5)).encode();
    for (query, code) in [
        ("limit=0".to_owned(), "invalid_limit"),
        ("limit=201".to_owned(), "invalid_limit"),
        ("limit=-1".to_owned(), "invalid_query"),
        ("limit=ten".to_owned(), "invalid_query"),
        ("cursor=bm9wZQ".to_owned(), "invalid_cursor"),
        (format!("cursor={foreign}"), "invalid_cursor"),
        ("phase=boarding".to_owned(), "invalid_query"),
    ] {
        let response = app.get(&format!("/api/player/flight/flights?{query}"), &session).await;
        assert_problem(response, 400, code).await;
    }
    assert_problem(
        anonymous(&app, "/api/player/flight/flights").await,
        401,
        "credential_missing",
    )
    .await;
    assert_problem(
        app.get("/api/player/flight/flights", &app.operator.key).await,
        401,
        "session_invalid",
    )
    .await;
}

#[tokio::test]
async fn a_flight_the_driver_plays_shows_its_fairness_data_only_once_crashed() {
    let app = spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    let session = flight_player(&app, &app.operator, "rina").await;
    let deadline = Instant::now() + Duration::from_secs(150);
    let crashed = loop {
        assert!(Instant::now() < deadline, "no flight crashed within 150 s");
        let page = json_with_status(app.get("/api/player/flight/flights?limit=5", &session).await, 200).await;
        let flights = page["data"].as_array().expect("data").clone();
        for flight in &flights {
            assert_eq!(flight["phase"], "crashed", "{flight}");
            assert!(
                flight["seed"].is_string() && flight["crashPoint"].is_string(),
                "{flight}"
            );
        }
        let live = json_with_status(app.get("/api/player/flight", &session).await, 200).await;
        if live["phase"] != "crashed" {
            assert!(
                flights.iter().all(|flight| flight["id"] != live["id"]),
                "a flight not crashed is listed: {live}"
            );
        }
        if let Some(flight) = flights.first() {
            break flight.clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };

    let chains = json_with_status(anonymous(&app, "/api/public/flight/chains").await, 200).await;
    let current = &chains["data"][0];
    assert_eq!(current["id"], crashed["chainId"]);
    assert_eq!(
        (&current["commitment"], &current["salt"]),
        (&crashed["commitment"], &crashed["salt"])
    );
    assert_eq!(current["length"], 1_000);
    assert_eq!(current["firstFlightNumber"], 1);
    let stdout = verified(std::slice::from_ref(&crashed), current);
    assert!(
        stdout.starts_with(&format!(
            "OK   flight {}: seed links to the commitment, crash point {}",
            crashed["number"],
            crashed["crashPoint"].as_str().expect("crash point")
        )),
        "{stdout}"
    );
}
