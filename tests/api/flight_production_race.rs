//! A revocation racing purchases, black box, on a production instance: players buy
//! tickets in a stream while platform staff revoke the operator's production
//! authorization. Each purchase either stores its ticket before the revocation commits
//! (its debit is sent, the ticket flies) or is refused with nothing stored or sent; every
//! purchase sent after the revocation returned is refused; the wallet sees one purchase
//! debit per stored ticket and no other.

use std::collections::BTreeSet;
use std::time::Duration;

use futures_util::future::join_all;
use opinion_app::flight::{EnableOutcome, NewProductionAuthorization};
use opinion_wallet::WalletFlow;
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio::time::Instant;

use crate::flight_production::{assert_flight_verdict, production_flight_app_boarding, wallet_test};
use crate::flight_steps::{all_pages, buy, wait_ticket};
use crate::flight_support::{PLATFORM_STAFF, boarding_flight, flight_player};
use crate::helpers::TestApp;

/// Players buying while the revocation runs, one ticket each.
const RACERS: usize = 14;
/// Time between two racers' purchases.
const STAGGER: Duration = Duration::from_millis(25);
/// When the revocation starts, after the first racer's purchase.
const REVOKE_AFTER: Duration = Duration::from_millis(120);

/// One purchase: when it was sent, when its answer came, the answer.
struct Purchase {
    player: String,
    sent: Instant,
    answered: Instant,
    status: u16,
    body: Value,
}

async fn purchase(app: &TestApp, player: String, session: String, at: Instant) -> Purchase {
    tokio::time::sleep_until(at).await;
    let sent = Instant::now();
    let response = buy(app, &session, &format!("race-{player}"), "10000", Some("1.01")).await;
    let status = response.status().as_u16();
    let body: Value = response.json().await.expect("JSON");
    Purchase {
        player,
        sent,
        answered: Instant::now(),
        status,
        body,
    }
}

/// Waits for a flight boarding with at least 2.5 s of its boarding left, so the whole
/// race lands in it on a loaded machine.
async fn long_boarding(app: &TestApp, session: &str) {
    let instant = |live: &Value, field: &str| {
        live[field]
            .as_str()
            .and_then(|text| OffsetDateTime::parse(text, &Rfc3339).ok())
            .expect("instant")
    };
    loop {
        let live = boarding_flight(app, session).await;
        let left = instant(&live, "takeOffAt") - instant(&live, "serverTime");
        if left >= time::Duration::milliseconds(2_500) {
            return;
        }
        tokio::time::sleep(Duration::try_from(left).unwrap_or_default() + Duration::from_millis(50)).await;
    }
}

fn refused(purchase: &Purchase) -> bool {
    purchase.status == 409 && purchase.body["code"] == "production_authorization_missing"
}

#[tokio::test]
async fn purchases_racing_a_revocation_are_stored_and_debited_before_it_or_refused_with_nothing_sent() {
    let names: Vec<String> = (0..RACERS + 3).map(|n| format!("racer-{n}")).collect();
    let players: Vec<&str> = names.iter().map(String::as_str).collect();
    let (app, wallet) = production_flight_app_boarding(&players, 4_000).await;
    app.flight
        .authorize_production(
            app.operator.id,
            &NewProductionAuthorization {
                reference: "CHG-2026-130".into(),
                expires_at: None,
            },
            PLATFORM_STAFF,
        )
        .await
        .expect("authorized");
    assert_flight_verdict(&wallet_test(&app).await, "passed");
    let outcome = app
        .flight
        .enable(app.operator.id, PLATFORM_STAFF)
        .await
        .expect("enable");
    assert!(matches!(outcome, EnableOutcome::Enabled(_)), "{outcome:?}");
    let mut sessions = Vec::new();
    for name in &names {
        sessions.push(flight_player(&app, &app.operator, name).await);
    }

    long_boarding(&app, &sessions[0]).await;
    let start = Instant::now();
    let first = purchase(&app, names[0].clone(), sessions[0].clone(), start).await;
    assert_eq!(first.status, 200, "bought while authorized: {}", first.body);

    let start = Instant::now();
    let racers = (1..=RACERS).map(|n| {
        let at = start + STAGGER * u32::try_from(n - 1).expect("few racers");
        purchase(&app, names[n].clone(), sessions[n].clone(), at)
    });
    let revocation = async {
        tokio::time::sleep_until(start + REVOKE_AFTER).await;
        let began = Instant::now();
        let stopped = app
            .flight
            .revoke_production(app.operator.id, PLATFORM_STAFF)
            .await
            .expect("revoked");
        (began, Instant::now(), stopped)
    };
    let (racing, (revoke_began, revoke_returned, stopped)) = tokio::join!(join_all(racers), revocation);
    assert_eq!(stopped, 1);
    let mut after = Vec::new();
    for (name, session) in names.iter().zip(&sessions).skip(RACERS + 1) {
        after.push(purchase(&app, name.clone(), session.clone(), Instant::now()).await);
    }

    let all: Vec<&Purchase> = std::iter::once(&first).chain(&racing).chain(&after).collect();
    for purchase in &all {
        assert!(
            purchase.status == 200 || refused(purchase),
            "{}: {} {}",
            purchase.player,
            purchase.status,
            purchase.body
        );
        if purchase.answered < revoke_began {
            assert_eq!(
                purchase.status, 200,
                "{} was answered before the revocation began",
                purchase.player
            );
        }
        if purchase.sent > revoke_returned {
            assert!(
                refused(purchase),
                "{} was sent after the revocation returned",
                purchase.player
            );
        }
    }
    assert!(after.iter().all(refused));

    let bought: BTreeSet<String> = all
        .iter()
        .filter(|purchase| purchase.status == 200)
        .map(|purchase| purchase.body["id"].as_str().expect("ticket id").to_owned())
        .collect();
    let stored: BTreeSet<String> = all_pages(&app, &app.operator.key, "/api/operator/flight/tickets")
        .await
        .iter()
        .map(|ticket| ticket["id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(stored, bought, "exactly the accepted purchases are stored");

    let debited: Vec<String> = wallet
        .ledger()
        .into_iter()
        .filter(|entry| {
            entry.request.as_ref().is_some_and(|request| {
                request.flow == WalletFlow::FlightTicketPurchase && request.external_user_id.starts_with("racer-")
            })
        })
        .map(|entry| entry.metadata("ticketId").expect("ticketId").to_owned())
        .collect();
    assert_eq!(
        debited.len(),
        bought.len(),
        "one purchase debit per stored ticket: {debited:?}"
    );
    assert_eq!(debited.into_iter().collect::<BTreeSet<_>>(), bought);

    for ticket in &bought {
        // A ticket stored before the revocation flies: it is cashed out or lost, never
        // refunded or rejected.
        wait_ticket(&app, &app.operator.key, ticket, |ticket| {
            ticket["status"] == "cashed_out" || ticket["status"] == "lost"
        })
        .await;
    }
}
