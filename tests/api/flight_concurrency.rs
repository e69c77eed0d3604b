//! Many players cashing out of one flight at once, a burst in the air and a spread of
//! requests around the crash instant: every ticket is decided exactly once, the HTTP
//! answers agree with what is stored, winners cashed out below the crash point before
//! the crash and are paid once, losers are paid nothing. The server's clock decides, so
//! what the test knows for certain is causal: an answer received before the crash
//! instant is a win, a request sent at or after it is a loss; how many of the burst
//! are served before the crash depends on the machine's load and is not asserted.

use std::time::Duration;

use futures_util::future::join_all;
use serde_json::Value;
use time::OffsetDateTime;

use crate::flight_db;
use crate::flight_steps::*;
use crate::flight_support::{enable_flight, flight_player, simulated_idr_user};
use crate::helpers::{TestApp, json_with_status, spawn_configured_app};

const PLAYERS: usize = 40;
const STAKE: i64 = 5_000;

/// An instance driving flights with boarding long enough for every player to buy, even
/// on a busy two-core machine where forty purchases can take a few seconds.
async fn spawn_app() -> TestApp {
    spawn_configured_app(|config| opinion::config::Config {
        flight_driver: true,
        flight_boarding_ms: 8_000,
        flight_pause_ms: 200,
        flight_tick_ms: 20,
        flight_chain_length: 1_000,
        ..config
    })
    .await
}

/// A player's cash-out answer: status, problem code (if any) and body, with when the
/// request left and when its answer came back (the server's clock is this machine's).
#[derive(Debug, Clone)]
struct Answer {
    ticket: String,
    status: u16,
    code: Option<String>,
    body: Value,
    sent_at: OffsetDateTime,
    answered_at: OffsetDateTime,
}

/// POSTs the cash-out of `ticket` at `at` (the wall clock, as the server's).
async fn cash_out_at(
    client: reqwest::Client,
    address: String,
    session: String,
    ticket: String,
    at: OffsetDateTime,
) -> Answer {
    let wait = at - OffsetDateTime::now_utc();
    if let Ok(wait) = Duration::try_from(wait) {
        tokio::time::sleep(wait).await;
    }
    let sent_at = OffsetDateTime::now_utc();
    let response = client
        .post(format!("{address}/api/player/flight/tickets/{ticket}/cash-out"))
        .bearer_auth(&session)
        .send()
        .await
        .expect("request");
    let answered_at = OffsetDateTime::now_utc();
    let status = response.status().as_u16();
    let body: Value = response.json().await.expect("JSON");
    Answer {
        ticket,
        status,
        code: body["code"].as_str().map(str::to_owned),
        body,
        sent_at,
        answered_at,
    }
}

#[tokio::test]
async fn forty_players_cashing_out_around_the_crash_are_each_decided_once_and_consistently() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    enable_flight(&app, &app.operator).await;
    let mut sessions = Vec::new();
    for n in 0..PLAYERS {
        let player = format!("crowd-{n}");
        simulated_idr_user(&app, &key, &player, 100_000).await;
        sessions.push(flight_player(&app, &app.operator, &player).await);
    }

    let (flight_id, plan) = suitable_flight(
        &app,
        &sessions[0],
        Duration::from_millis(1_500)..Duration::from_secs(15),
        Duration::from_secs(6),
    )
    .await;
    let stake = STAKE.to_string();
    let bought = join_all(sessions.iter().map(|session| buy(&app, session, "crowd", &stake, None))).await;
    let mut tickets = Vec::new();
    for response in bought {
        let ticket = json_with_status(response, 200).await;
        assert_eq!(ticket["flightId"], flight_id.as_str(), "{ticket:#}");
        assert_eq!(ticket["status"], "active", "{ticket:#}");
        tickets.push(ticket["id"].as_str().expect("id").to_owned());
    }

    // A third of the players cash out together in the air, a second before the crash,
    // the others one by one from 60 ms before the crash instant to 40 ms after it.
    let burst_at = plan.crash_at - time::Duration::milliseconds(1_000);
    let answers = join_all(sessions.iter().zip(&tickets).enumerate().map(|(n, (session, ticket))| {
        let at = if n < PLAYERS / 3 {
            burst_at
        } else {
            let spread = (n - PLAYERS / 3) as i64 * 100 / (PLAYERS - PLAYERS / 3) as i64;
            plan.crash_at + time::Duration::milliseconds(spread - 60)
        };
        tokio::spawn(cash_out_at(
            app.client.clone(),
            app.address.clone(),
            session.clone(),
            ticket.clone(),
            at,
        ))
    }))
    .await
    .into_iter()
    .map(|joined| joined.expect("task"))
    .collect::<Vec<Answer>>();

    // Every ticket decided; payouts sent.
    for ticket in &tickets {
        wait_ticket(&app, &key, ticket, |read| read["status"] != "active").await;
    }
    let flight = json_with_status(
        app.get(&format!("/api/operator/flight/flights/{flight_id}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(hundredths(&flight["crashPoint"]), plan.crash_hundredths, "{flight:#}");
    let crashed_at = flight["crashedAt"].as_str().expect("crashedAt").to_owned();
    let mut db = flight_db::connect(&app).await;
    let (mut won, mut lost) = (0, 0);
    for answer in &answers {
        let ticket = match answer.status {
            200 => pay_until_settled(&app, &key, &answer.ticket).await,
            _ => operator_ticket(&app, &key, &answer.ticket).await,
        };
        let payouts = flight_db::operations_of(&mut db, &answer.ticket, "flight_ticket_payout").await;
        let cashed_events = flight_db::events_of(&mut db, &answer.ticket, "mini_app.flight.ticket.cashed_out").await;
        let lost_events = flight_db::events_of(&mut db, &answer.ticket, "mini_app.flight.ticket.lost").await;
        match (answer.status, answer.code.as_deref()) {
            (200, _) => {
                won += 1;
                assert_eq!(ticket["status"], "cashed_out", "{answer:#?} {ticket:#}");
                assert_eq!(
                    answer.body["cashOut"], ticket["cashOutMultiplier"],
                    "{answer:#?} {ticket:#}"
                );
                let multiplier = hundredths(&ticket["cashOutMultiplier"]);
                assert!(
                    (101..plan.crash_hundredths).contains(&multiplier),
                    "{ticket:#} crash {}",
                    plan.crash_hundredths
                );
                assert_eq!(rupiah_of(&ticket["payout"]), STAKE * multiplier / 100, "{ticket:#}");
                assert!(
                    ticket["cashedOutAt"].as_str().expect("cashedOutAt") < crashed_at.as_str(),
                    "{ticket:#} crashed at {crashed_at}"
                );
                assert_eq!((payouts, cashed_events, lost_events), (1, 1, 0), "{ticket:#}");
            }
            (409, Some("flight_crashed")) => {
                lost += 1;
                assert_eq!(ticket["status"], "lost", "{answer:#?} {ticket:#}");
                assert!(
                    ticket["payout"].is_null() && ticket["cashOutMultiplier"].is_null(),
                    "{ticket:#}"
                );
                assert_eq!((payouts, cashed_events, lost_events), (0, 0, 1), "{ticket:#}");
            }
            _ => panic!("an unexpected cash-out answer: {answer:#?}"),
        }
        if answer.answered_at < plan.crash_at {
            assert_eq!(answer.status, 200, "answered before the crash, so won: {answer:#?}");
        }
        if answer.sent_at >= plan.crash_at {
            assert_eq!(answer.status, 409, "sent after the crash, so lost: {answer:#?}");
        }
    }
    assert_eq!(won + lost, PLAYERS, "{answers:#?}");
}
