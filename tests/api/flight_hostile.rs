//! Hostile input on every player flight route: missing, invalid and ended sessions, an
//! Opinion session, malformed and unknown bodies, every bad stake, auto cash-out and
//! client ticket id, buying out of boarding, over the cap, replays (one after another
//! and at once), other players' tickets, bad ids and bad pages. Every answer is a 4xx
//! problem with a stable code, and nothing is written (the reads and the wallet show it).

use futures_util::future::join_all;
use reqwest::Method;
use serde_json::{Value, json};

use crate::flight_steps::*;
use crate::flight_support::{
    boarding_flight, enable_flight, flight_player, simulated_idr_user, spawn_flight_app, spawn_flight_app_boarding,
};
use crate::helpers::{TestApp, assert_problem, json_with_status};

/// Every player flight route: method, path (with a ticket id where it takes one).
const ROUTES: [(&str, &str); 6] = [
    ("GET", "/api/player/flight"),
    ("GET", "/api/player/flight/flights"),
    ("GET", "/api/player/flight/live"),
    ("POST", "/api/player/flight/tickets"),
    ("GET", "/api/player/flight/tickets"),
    (
        "POST",
        "/api/player/flight/tickets/tkt_01m86m05ztfdqysnbq0641dqjb/cash-out",
    ),
];

fn method(name: &str) -> Method {
    Method::from_bytes(name.as_bytes()).expect("method")
}

/// Calls every route with `credential`, with a valid ticket order and with a malformed
/// body and query string; each must answer `status` with `code` (the session is judged
/// before anything the request carries).
async fn every_route_refuses(app: &TestApp, credential: Option<&str>, status: u16, code: &str) {
    let valid = json!({"clientTicketId": "x", "stake": "10000"}).to_string();
    for (verb, path) in ROUTES {
        for (query, body) in [("", valid.as_str()), ("?limit=abc", "{\"stake\": ")] {
            let response = app
                .request(method(verb), &format!("{path}{query}"), credential)
                .header("content-type", "application/json")
                .body(body.to_owned())
                .send()
                .await
                .expect("request");
            let problem = assert_problem(response, status, code).await;
            assert!(!problem.to_string().contains("tkt_"), "{verb} {path}{query}: {problem}");
        }
    }
}

/// The player's tickets as the player lists them.
async fn tickets_of(app: &TestApp, session: &str) -> Vec<Value> {
    let page = json_with_status(app.get("/api/player/flight/tickets?limit=200", session).await, 200).await;
    page["data"].as_array().expect("data").clone()
}

/// POSTs a raw body to the ticket route.
async fn raw_order(app: &TestApp, session: &str, body: &str) -> reqwest::Response {
    app.request(Method::POST, "/api/player/flight/tickets", Some(session))
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .expect("request")
}

#[tokio::test]
async fn sessions_that_are_missing_invalid_ended_or_of_another_product_are_refused_on_every_route() {
    let app = spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    every_route_refuses(&app, None, 401, "credential_missing").await;
    every_route_refuses(&app, Some("not-a-session"), 401, "session_invalid").await;
    every_route_refuses(&app, Some(&app.operator.key), 401, "session_invalid").await;

    simulated_idr_user(&app, &app.operator.key, "ended", 100_000).await;
    let ended = flight_player(&app, &app.operator, "ended").await;
    app.request(Method::DELETE, "/api/player/sessions/current", Some(&ended))
        .send()
        .await
        .expect("log out");
    every_route_refuses(&app, Some(&ended), 401, "session_ended").await;

    // A player launched into Opinion holds a live session, but not for flight.
    simulated_idr_user(&app, &app.operator.key, "opinion-player", 100_000).await;
    let launched = json_with_status(
        app.post(
            "/api/operator/launch",
            &app.operator.key,
            &json!({"externalUserId": "opinion-player"}),
        )
        .await,
        201,
    )
    .await;
    let opened = app
        .request(Method::POST, "/api/player/sessions", None)
        .json(&json!({"launchToken": launched["launchToken"]}))
        .send()
        .await
        .expect("request");
    let opinion = json_with_status(opened, 201).await["sessionToken"]
        .as_str()
        .expect("sessionToken")
        .to_owned();
    boarding_flight(&app, &flight_player(&app, &app.operator, "ended-too").await).await;
    every_route_refuses(&app, Some(&opinion), 409, "wrong_product").await;
    let operations = all_pages(
        &app,
        &app.operator.key,
        "/api/operator/flight/wallet-operations?externalUserId=opinion-player",
    )
    .await;
    assert!(operations.is_empty(), "{operations:#?}");
}

#[tokio::test]
async fn bad_orders_are_refused_with_the_field_named_and_nothing_is_written() {
    let app = spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    simulated_idr_user(&app, &app.operator.key, "rina", 100_000).await;
    let session = flight_player(&app, &app.operator, "rina").await;
    boarding_flight(&app, &session).await;

    let malformed = raw_order(&app, &session, r#"{"clientTicketId": "a", "stake": "#).await;
    assert_problem(malformed, 400, "malformed_json").await;
    let unknown = buy_body(
        &app,
        &session,
        json!({"clientTicketId": "a", "stake": "10000", "insured": true}),
    )
    .await;
    assert_problem(unknown, 400, "invalid_body").await;
    for body in [
        json!({"clientTicketId": "a", "stake": 10000}),
        json!({"clientTicketId": "a"}),
        json!({"stake": "10000"}),
        json!({"clientTicketId": 7, "stake": "10000"}),
        json!({"clientTicketId": "a", "stake": "10000", "autoCashOut": 2}),
        json!([]),
    ] {
        let answer = buy_body(&app, &session, body.clone()).await;
        let problem = assert_problem(answer, 400, "invalid_body").await;
        assert!(problem["detail"].is_string(), "{body}: {problem}");
    }
    let bad_fields: [(Value, &str); 17] = [
        (json!({"clientTicketId": "a", "stake": "abc"}), "stake"),
        (json!({"clientTicketId": "a", "stake": "10000.5"}), "stake"),
        (json!({"clientTicketId": "a", "stake": "-10000"}), "stake"),
        (json!({"clientTicketId": "a", "stake": ""}), "stake"),
        (json!({"clientTicketId": "a", "stake": " 10000"}), "stake"),
        (
            json!({"clientTicketId": "a", "stake": "99999999999999999999999999"}),
            "stake",
        ),
        (json!({"clientTicketId": "a", "stake": "999"}), "stake"),
        (json!({"clientTicketId": "a", "stake": "0"}), "stake"),
        (json!({"clientTicketId": "a", "stake": "1000001"}), "stake"),
        (
            json!({"clientTicketId": "a", "stake": "10000", "autoCashOut": "1.00"}),
            "autoCashOut",
        ),
        (
            json!({"clientTicketId": "a", "stake": "10000", "autoCashOut": "10000.01"}),
            "autoCashOut",
        ),
        (
            json!({"clientTicketId": "a", "stake": "10000", "autoCashOut": "1.234"}),
            "autoCashOut",
        ),
        (
            json!({"clientTicketId": "a", "stake": "10000", "autoCashOut": "abc"}),
            "autoCashOut",
        ),
        (
            json!({"clientTicketId": "a", "stake": "10000", "autoCashOut": ""}),
            "autoCashOut",
        ),
        (
            json!({"clientTicketId": "a", "stake": "10000", "autoCashOut": "-2.00"}),
            "autoCashOut",
        ),
        (json!({"clientTicketId": "", "stake": "10000"}), "clientTicketId"),
        (
            json!({"clientTicketId": "x".repeat(65), "stake": "10000"}),
            "clientTicketId",
        ),
    ];
    for (body, field) in bad_fields {
        let answer = buy_body(&app, &session, body.clone()).await;
        let problem = assert_problem(answer, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{body}: {problem}");
    }
    let spaced = buy_body(&app, &session, json!({"clientTicketId": "a b", "stake": "10000"})).await;
    assert_eq!(
        assert_problem(spaced, 400, "validation_failed").await["field"],
        "clientTicketId"
    );

    assert!(tickets_of(&app, &session).await.is_empty());
    let wallet = simulated_wallet(&app, &app.operator.key, "rina").await;
    assert_eq!(rupiah_of(&wallet["balance"]), 100_000, "{wallet:#}");
    let operations = all_pages(
        &app,
        &app.operator.key,
        "/api/operator/flight/wallet-operations?externalUserId=rina",
    )
    .await;
    assert!(operations.is_empty(), "{operations:#?}");
}

/// The operator's ticket purchase debits of `player`, every page.
async fn purchase_debits(app: &TestApp, key: &str, player: &str) -> Vec<Value> {
    let path = format!("/api/operator/flight/wallet-operations?externalUserId={player}&flow=flight_ticket_purchase");
    all_pages(app, key, &path).await
}

/// `POST /api/player/flight/tickets` with `body`.
async fn buy_body(app: &TestApp, session: &str, body: Value) -> reqwest::Response {
    app.post("/api/player/flight/tickets", session, &body).await
}

#[tokio::test]
async fn the_cap_replays_boarding_and_other_players_tickets_are_enforced() {
    // Eight purchases and replays go into one boarding: give it time on a loaded machine.
    let app = spawn_flight_app_boarding(4_000).await;
    let key = app.operator.key.clone();
    enable_flight(&app, &app.operator).await;
    simulated_idr_user(&app, &key, "rina", 100_000).await;
    simulated_idr_user(&app, &key, "budi", 100_000).await;
    simulated_idr_user(&app, &key, "poor", 5_000).await;
    let rina = flight_player(&app, &app.operator, "rina").await;
    let budi = flight_player(&app, &app.operator, "budi").await;
    let poor = flight_player(&app, &app.operator, "poor").await;

    // One boarding: two tickets, a replay, a reused id, the cap, a refused debit.
    let flight = boarding_flight(&app, &rina).await;
    let first = json_with_status(buy(&app, &rina, "one", "10000", Some("2.00")).await, 200).await;
    let replay = json_with_status(buy(&app, &rina, "one", "10000", Some("2.00")).await, 200).await;
    assert_eq!(replay["id"], first["id"], "{replay:#}");
    assert_problem(
        buy(&app, &rina, "one", "20000", Some("2.00")).await,
        409,
        "client_ticket_id_reused",
    )
    .await;
    assert_problem(
        buy(&app, &rina, "one", "10000", None).await,
        409,
        "client_ticket_id_reused",
    )
    .await;
    let second = json_with_status(buy(&app, &rina, "two", "10000", None).await, 200).await;
    assert_problem(
        buy(&app, &rina, "three", "10000", None).await,
        409,
        "ticket_cap_reached",
    )
    .await;
    let rejected = json_with_status(buy(&app, &poor, "broke", "10000", None).await, 200).await;
    assert_eq!(rejected["status"], "rejected", "{rejected:#}");
    assert_eq!(first["flightId"], flight["id"]);

    // Another player's ticket does not exist for budi; a rejected one never flew.
    for id in [&first["id"], &second["id"]] {
        let path = format!("/api/player/flight/tickets/{}/cash-out", id.as_str().expect("id"));
        assert_problem(app.post_empty(&path, &budi).await, 404, "not_found").await;
    }
    let path = format!(
        "/api/player/flight/tickets/{}/cash-out",
        rejected["id"].as_str().expect("id")
    );
    assert_problem(app.post_empty(&path, &poor).await, 409, "ticket_not_active").await;
    for bad in ["nope", "tkt_", "tkt_!!!", flight["id"].as_str().expect("id")] {
        let path = format!("/api/player/flight/tickets/{bad}/cash-out");
        assert_problem(app.post_empty(&path, &rina).await, 400, "invalid_id").await;
    }

    // Boarding closes: no more tickets; the flight is decided, then a lost ticket stays lost.
    let in_air = wait_take_off(&app, &budi, &flight["id"]).await;
    assert_ne!(in_air["phase"], "boarding");
    assert_problem(buy(&app, &budi, "late", "10000", None).await, 409, "boarding_closed").await;
    let second_id = second["id"].as_str().expect("id");
    let settled = wait_ticket(&app, &key, second_id, |ticket| ticket["status"] != "active").await;
    if settled["status"] == "lost" {
        let path = format!("/api/player/flight/tickets/{second_id}/cash-out");
        assert_problem(app.post_empty(&path, &rina).await, 409, "flight_crashed").await;
    }

    // Bad pages of the list.
    for (query, code) in [
        ("limit=0", "invalid_limit"),
        ("limit=201", "invalid_limit"),
        ("limit=x", "invalid_query"),
        ("limit=-1", "invalid_query"),
        ("cursor=garbage", "invalid_cursor"),
        ("cursor=", "invalid_cursor"),
        ("status=lost", "invalid_query"),
    ] {
        let answer = app.get(&format!("/api/player/flight/tickets?{query}"), &rina).await;
        assert_problem(answer, 400, code).await;
    }

    // Nothing beyond the two tickets and the refused debit was written.
    let mine = tickets_of(&app, &rina).await;
    assert_eq!(mine.len(), 2, "{mine:#?}");
    assert!(tickets_of(&app, &budi).await.is_empty());
    let operations = all_pages(&app, &key, "/api/operator/flight/wallet-operations?externalUserId=budi").await;
    assert!(operations.is_empty(), "{operations:#?}");
    let purchases = purchase_debits(&app, &key, "rina").await;
    assert_eq!(purchases.len(), 2, "{purchases:#?}");
    let wallet = simulated_wallet(&app, &key, "poor").await;
    assert_eq!(rupiah_of(&wallet["balance"]), 5_000, "{wallet:#}");
}

#[tokio::test]
async fn twin_purchases_sent_at_once_buy_one_ticket_and_each_answers_it() {
    let app = spawn_flight_app_boarding(4_000).await;
    let key = app.operator.key.clone();
    enable_flight(&app, &app.operator).await;
    simulated_idr_user(&app, &key, "rina", 100_000).await;
    let rina = flight_player(&app, &app.operator, "rina").await;
    boarding_flight(&app, &rina).await;

    let answers = join_all((0..6).map(|_| buy(&app, &rina, "twin", "10000", None))).await;

    let mut tickets = Vec::new();
    for answer in answers {
        tickets.push(json_with_status(answer, 200).await);
    }
    assert!(
        tickets.iter().all(|ticket| ticket["id"] == tickets[0]["id"]),
        "{tickets:#?}"
    );
    assert_eq!(tickets_of(&app, &rina).await.len(), 1);
    let purchases = purchase_debits(&app, &key, "rina").await;
    assert_eq!(purchases.len(), 1, "{purchases:#?}");
    let wallet = simulated_wallet(&app, &key, "rina").await;
    assert_eq!(rupiah_of(&wallet["balance"]), 90_000, "{wallet:#}");
}
