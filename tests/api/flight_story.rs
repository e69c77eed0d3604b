//! The flight product end to end as an operator sees it: a player buys two tickets on
//! one flight, cashes one out in the air and loses the other; the operator then reads
//! the flight (fairness data revealed after the crash, verified by the published
//! script), the tickets, the wallet operations and the signed events it received, and
//! the player's wallet holds exactly what the game says.

use std::time::Duration;

use opinion_testkit::{ReceivedRequest, WebhookSink};
use serde_json::Value;

use crate::fairness_script::run_verifier;
use crate::flight_steps::*;
use crate::flight_support::{SHARE_BPS, enable_flight, flight_player, simulated_idr_user, spawn_flight_app};
use crate::helpers::{TestApp, json_with_status};
use crate::webhooks_support::{clock_after_now, register, verifies_now};

const TICKET_EVENTS: [&str; 4] = [
    "mini_app.flight.ticket.purchased",
    "mini_app.flight.ticket.cashed_out",
    "mini_app.flight.ticket.lost",
    "mini_app.flight.ticket.refunded",
];

const STARTING_BALANCE: i64 = 100_000;
const WON_STAKE: i64 = 10_000;
const LOST_STAKE: i64 = 20_000;

/// One flight played by one player: the ticket cashed out and the ticket lost.
struct Played {
    player: String,
    flight_id: String,
    won: Value,
    lost: Value,
}

/// Plays a flight that crashes 1 to 20 s after take-off (should a cash-out still fail,
/// the next such flight is tried with a new player); the player buys two tickets
/// without auto cash-out and cashes out the first as soon as it may.
async fn play(app: &TestApp) -> Played {
    for attempt in 0..10 {
        let player = format!("rina-{attempt}");
        simulated_idr_user(app, &app.operator.key, &player, STARTING_BALANCE).await;
        let session = flight_player(app, &app.operator, &player).await;
        // A flight in the air for 1 to 20 s: time to cash out, and a crash soon after.
        let (flight_id, _) = suitable_flight(
            app,
            &session,
            Duration::from_secs(1)..Duration::from_secs(20),
            Duration::from_millis(500),
        )
        .await;
        let flight = serde_json::json!({ "id": flight_id });
        let won = json_with_status(buy(app, &session, "won", &WON_STAKE.to_string(), None).await, 200).await;
        let lost = json_with_status(buy(app, &session, "lost", &LOST_STAKE.to_string(), None).await, 200).await;
        if won["status"] != "active" || lost["status"] != "active" {
            continue;
        }
        wait_take_off(app, &session, &flight["id"]).await;
        let id = won["id"].as_str().expect("id");
        loop {
            let answer = cash_out(app, &session, id).await;
            let status = answer.status().as_u16();
            let body: Value = answer.json().await.expect("JSON");
            match (status, body["code"].as_str()) {
                (200, _) => {
                    return Played {
                        player,
                        flight_id: flight["id"].as_str().expect("id").to_owned(),
                        won: body,
                        lost,
                    };
                }
                (409, Some("cash_out_too_early")) => tokio::time::sleep(Duration::from_millis(10)).await,
                (409, Some("flight_crashed")) => break,
                _ => panic!("unexpected cash-out answer {status}: {body:#}"),
            }
        }
    }
    panic!("ten flights in a row refused the cash-out");
}

/// Delivers due events until the sink holds `count` ticket events of `player`; answers
/// them with the requests that carried them.
async fn events_of(app: &TestApp, sink: &WebhookSink, player: &str, count: usize) -> Vec<(Value, ReceivedRequest)> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let worker = app.webhooks_with_clock(clock_after_now()).await;
    loop {
        worker.deliver_due(50).await.expect("deliver");
        let received: Vec<(Value, ReceivedRequest)> = sink
            .received()
            .into_iter()
            .map(|request| (serde_json::from_slice(&request.body).expect("JSON"), request))
            .filter(|(envelope, _): &(Value, ReceivedRequest)| envelope["data"]["externalUserId"] == player)
            .collect();
        if received.len() >= count {
            return received;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "only {} events of {player} arrived",
            received.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_player_wins_one_ticket_and_loses_the_other_and_the_operator_reads_and_verifies_it_all() {
    let app = spawn_flight_app().await;
    let key = app.operator.key.clone();
    let sink = WebhookSink::start().await;
    let endpoint = register(&app, &app.operator, &sink.url("flight"), &TICKET_EVENTS).await;
    enable_flight(&app, &app.operator).await;

    let played = play(&app).await;
    let won_id = played.won["id"].as_str().expect("id").to_owned();
    let lost_id = played.lost["id"].as_str().expect("id").to_owned();
    assert_eq!(played.won["status"], "cashed_out", "{:#}", played.won);

    // The flight crashes, the loser is settled and the payout reaches the wallet.
    let lost = wait_ticket(&app, &key, &lost_id, |ticket| ticket["status"] != "active").await;
    let won = pay_until_settled(&app, &key, &won_id).await;

    // The flight: crashed, its seed and crash point revealed, verified by the script.
    let detail = json_with_status(
        app.get(&format!("/api/operator/flight/flights/{}", played.flight_id), &key)
            .await,
        200,
    )
    .await;
    let flight = &detail;
    assert_eq!(flight["phase"], "crashed", "{detail:#}");
    assert!(
        flight["seed"].as_str().is_some_and(|seed| seed.len() == 64),
        "{detail:#}"
    );
    let crash = hundredths(&flight["crashPoint"]);
    assert!(flight["crashedAt"].is_string(), "{detail:#}");
    let output = run_verifier(
        &[
            "--commitment",
            flight["commitment"].as_str().expect("commitment"),
            "--salt",
            flight["salt"].as_str().expect("salt"),
        ],
        &flight.to_string(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let expected_line = format!("OK   flight {}: ", flight["number"]);
    assert!(stdout.contains(&expected_line), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "crash point {}",
            flight["crashPoint"].as_str().expect("crashPoint")
        )),
        "{stdout}"
    );

    // The tickets: one cashed out below the crash point before the crash, one lost.
    let multiplier = hundredths(&won["cashOutMultiplier"]);
    assert!((101..crash).contains(&multiplier), "{won:#} crash {crash}");
    let payout = WON_STAKE * multiplier / 100;
    assert_eq!(rupiah_of(&won["payout"]), payout, "{won:#}");
    assert_eq!(won["status"], "cashed_out", "{won:#}");
    assert!(
        won["cashedOutAt"].as_str() < flight["crashedAt"].as_str(),
        "{won:#} {flight:#}"
    );
    assert_eq!(won["cashOutMultiplier"], played.won["cashOut"], "{won:#}");
    assert_eq!(lost["status"], "lost", "{lost:#}");
    assert!(
        lost["payout"].is_null() && lost["cashOutMultiplier"].is_null(),
        "{lost:#}"
    );
    assert!(lost["settledAt"].is_string(), "{lost:#}");
    for ticket in [&won, &lost] {
        assert_eq!(ticket["shareBps"], SHARE_BPS, "{ticket:#}");
        assert_eq!(ticket["currency"], "IDR", "{ticket:#}");
        assert!(ticket["autoCashOut"].is_null(), "{ticket:#}");
        assert_eq!(ticket["flightId"], played.flight_id.as_str(), "{ticket:#}");
    }
    let listed = all_pages(
        &app,
        &key,
        &format!(
            "/api/operator/flight/tickets?flightId={}&externalUserId={}",
            played.flight_id, played.player
        ),
    )
    .await;
    let mut listed_ids: Vec<&str> = listed.iter().filter_map(|ticket| ticket["id"].as_str()).collect();
    listed_ids.sort_unstable();
    let mut expected_ids = vec![won_id.as_str(), lost_id.as_str()];
    expected_ids.sort_unstable();
    assert_eq!(listed_ids, expected_ids, "{listed:#?}");

    // The wallet operations: both debits and the payout credit, applied, in IDR.
    let operations = all_pages(
        &app,
        &key,
        &format!(
            "/api/operator/flight/wallet-operations?externalUserId={}",
            played.player
        ),
    )
    .await;
    assert_eq!(operations.len(), 3, "{operations:#?}");
    let of = |ticket: &str, flow: &str| {
        operations
            .iter()
            .find(|operation| operation["ticketId"] == ticket && operation["flow"] == flow)
            .unwrap_or_else(|| panic!("no {flow} of {ticket}: {operations:#?}"))
            .clone()
    };
    let won_debit = of(&won_id, "flight_ticket_purchase");
    let lost_debit = of(&lost_id, "flight_ticket_purchase");
    let credit = of(&won_id, "flight_ticket_payout");
    for (operation, amount) in [(&won_debit, WON_STAKE), (&lost_debit, LOST_STAKE), (&credit, payout)] {
        assert_eq!(operation["state"], "applied", "{operation:#}");
        assert_eq!(operation["currency"], "IDR", "{operation:#}");
        assert_eq!(operation["reason"], operation["flow"], "{operation:#}");
        assert_eq!(rupiah_of(&operation["amount"]), amount, "{operation:#}");
        assert_eq!(operation["flightId"], played.flight_id.as_str(), "{operation:#}");
        assert_eq!(
            operation["metadata"]["flightId"],
            played.flight_id.as_str(),
            "{operation:#}"
        );
        assert_eq!(
            operation["metadata"]["ticketId"], operation["ticketId"],
            "{operation:#}"
        );
        assert!(operation["remote_reference"].is_string(), "{operation:#}");
    }
    assert_eq!(won_debit["metadata"]["autoCashOut"], "none", "{won_debit:#}");
    assert_eq!(lost_debit["metadata"]["autoCashOut"], "none", "{lost_debit:#}");
    assert_eq!(credit["metadata"]["multiplier"], won["cashOutMultiplier"], "{credit:#}");
    assert_eq!(won["purchaseOperationId"], won_debit["id"], "{won:#}");
    assert_eq!(lost["purchaseOperationId"], lost_debit["id"], "{lost:#}");

    // The events: two purchases, the cash-out and the loss, each signed.
    let events = events_of(&app, &sink, &played.player, 4).await;
    assert_eq!(events.len(), 4, "{events:#?}");
    for (envelope, request) in &events {
        assert!(verifies_now(&endpoint.secret, request), "{envelope:#}");
        assert_eq!(request.header("webhook-id"), envelope["id"].as_str(), "{envelope:#}");
    }
    let mut types: Vec<&str> = events
        .iter()
        .map(|(envelope, _)| envelope["type"].as_str().expect("type"))
        .collect();
    types.sort_unstable();
    assert_eq!(
        types,
        [
            "mini_app.flight.ticket.cashed_out",
            "mini_app.flight.ticket.lost",
            "mini_app.flight.ticket.purchased",
            "mini_app.flight.ticket.purchased",
        ],
        "{events:#?}"
    );
    let event = |kind: &str| {
        events
            .iter()
            .find(|(envelope, _)| envelope["type"] == kind)
            .map(|(envelope, _)| envelope["data"].clone())
            .expect("event")
    };
    let cashed = event("mini_app.flight.ticket.cashed_out");
    assert_eq!(cashed["ticketId"], won_id.as_str(), "{cashed:#}");
    assert_eq!(cashed["multiplier"], won["cashOutMultiplier"], "{cashed:#}");
    assert_eq!(rupiah_of(&cashed["payout"]), payout, "{cashed:#}");
    assert_eq!(cashed["auto"], false, "{cashed:#}");
    let lost_event = event("mini_app.flight.ticket.lost");
    assert_eq!(lost_event["ticketId"], lost_id.as_str(), "{lost_event:#}");
    assert_eq!(lost_event["crashPoint"], flight["crashPoint"], "{lost_event:#}");
    for (envelope, _) in events
        .iter()
        .filter(|(envelope, _)| envelope["type"] == "mini_app.flight.ticket.purchased")
    {
        assert_eq!(envelope["data"]["shareBps"], SHARE_BPS, "{envelope:#}");
        assert_eq!(envelope["data"]["currency"], "IDR", "{envelope:#}");
        assert_eq!(envelope["operatorId"], app.operator.id.to_string(), "{envelope:#}");
    }

    // The player's wallet: exactly the stakes out and the payout in.
    let wallet = simulated_wallet(&app, &key, &played.player).await;
    assert_eq!(
        rupiah_of(&wallet["balance"]),
        STARTING_BALANCE - WON_STAKE - LOST_STAKE + payout,
        "{wallet:#}"
    );
}
