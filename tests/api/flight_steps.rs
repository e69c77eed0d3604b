//! Steps the flight play tests share: a player's calls (buy, cash out, the live flight),
//! waiting on the driver (a phase, a decided ticket), the money worker's passes and the
//! operator's reads of a ticket and a player's wallet.

use std::ops::Range;
use std::time::Duration;

use reqwest::Response;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::flight_db::{self, Plan};
use crate::helpers::{TestApp, json_with_status};

/// Generous bound for waits on the driver; never reached when things work. A flight
/// flies longer than this once in about 50,000 (P(crash instant > t) = 0.99·e^(−0.00006·t)).
pub const PATIENCE: Duration = Duration::from_secs(180);

/// `POST /api/player/flight/tickets` with `stake` and an optional auto cash-out.
pub async fn buy(app: &TestApp, session: &str, client_ticket_id: &str, stake: &str, auto: Option<&str>) -> Response {
    let body = match auto {
        Some(target) => json!({"clientTicketId": client_ticket_id, "stake": stake, "autoCashOut": target}),
        None => json!({"clientTicketId": client_ticket_id, "stake": stake}),
    };
    app.post("/api/player/flight/tickets", session, &body).await
}

/// `POST /api/player/flight/tickets/{id}/cash-out`.
pub async fn cash_out(app: &TestApp, session: &str, ticket_id: &str) -> Response {
    app.post_empty(&format!("/api/player/flight/tickets/{ticket_id}/cash-out"), session)
        .await
}

/// The live flight as the player sees it.
pub async fn live(app: &TestApp, session: &str) -> Value {
    json_with_status(app.get("/api/player/flight", session).await, 200).await
}

/// Waits until flight `id` has left boarding (in the air, crashed or cancelled), or
/// another flight is live; answers the live flight then.
pub async fn wait_take_off(app: &TestApp, session: &str, id: &Value) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let now = live(app, session).await;
        if now["id"] != *id || now["phase"] != "boarding" {
            return now;
        }
        assert!(tokio::time::Instant::now() < deadline, "flight {id} never took off");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The operator's read of one of its tickets (`GET /api/operator/flight/tickets/{id}`:
/// the ticket's fields and its `flight`).
pub async fn operator_ticket(app: &TestApp, key: &str, id: &str) -> Value {
    json_with_status(app.get(&format!("/api/operator/flight/tickets/{id}"), key).await, 200).await
}

/// Waits until the operator reads ticket `id` with a status `done` accepts; answers it.
pub async fn wait_ticket(app: &TestApp, key: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let ticket = operator_ticket(app, key, id).await;
        if done(&ticket) {
            return ticket;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "ticket {id} never reached the awaited state: {ticket:#}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs the flight money worker's passes until ticket `id` is settled; answers it.
pub async fn pay_until_settled(app: &TestApp, key: &str, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        app.flight.run_money_pass().await.expect("money pass");
        let ticket = operator_ticket(app, key, id).await;
        if !ticket["settledAt"].is_null() {
            return ticket;
        }
        if tokio::time::Instant::now() >= deadline {
            let operations = ticket_operations(app, key, id).await;
            panic!("ticket {id} was never settled: {ticket:#}\nits wallet operations: {operations:#}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The flight wallet operations of ticket `id` as the operator reads them: what a ticket
/// that never settles was waiting for (a credit in review, one still due, …).
async fn ticket_operations(app: &TestApp, key: &str, id: &str) -> Value {
    json_with_status(
        app.get(&format!("/api/operator/flight/wallet-operations?ticketId={id}"), key)
            .await,
        200,
    )
    .await
}

/// The simulated wallet of `player` (balance and log) as the operator reads it.
pub async fn simulated_wallet(app: &TestApp, key: &str, player: &str) -> Value {
    json_with_status(
        app.get(&format!("/api/operator/simulator/wallets/{player}"), key).await,
        200,
    )
    .await
}

/// Every page of `path` (a list route with its query, without `limit`/`cursor`).
pub async fn all_pages(app: &TestApp, key: &str, path: &str) -> Vec<Value> {
    let separator = if path.contains('?') { '&' } else { '?' };
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page_path = match &cursor {
            Some(cursor) => format!("{path}{separator}limit=200&cursor={cursor}"),
            None => format!("{path}{separator}limit=200"),
        };
        let page = json_with_status(app.get(&page_path, key).await, 200).await;
        items.extend(page["data"].as_array().expect("data").iter().cloned());
        match page["nextCursor"].as_str() {
            Some(next) if page["hasMore"] == true => cursor = Some(next.to_owned()),
            _ => return items,
        }
    }
}

/// Hundredths of a two-decimal multiplier string (`"3.46"` is 346).
pub fn hundredths(multiplier: &Value) -> i64 {
    let text = multiplier
        .as_str()
        .unwrap_or_else(|| panic!("a multiplier: {multiplier}"));
    let (whole, cents) = text.split_once('.').expect("two decimals");
    assert_eq!(cents.len(), 2, "{text}");
    whole.parse::<i64>().expect("whole") * 100 + cents.parse::<i64>().expect("hundredths")
}

/// Whole rupiah of an integer string.
pub fn rupiah_of(amount: &Value) -> i64 {
    amount
        .as_str()
        .unwrap_or_else(|| panic!("an amount: {amount}"))
        .parse()
        .expect("integer rupiah")
}

/// How long [`suitable_flight`] waits. Flights are drawn at random and a long one takes
/// minutes: a wait of four minutes once saw only four flights (96 s, 31 s, 1 s and 86 s
/// in the air), none of them between the 1.5 and 15 s a test asked for.
const SUITABLE_FLIGHT_WAIT: Duration = Duration::from_secs(600);

/// Waits (up to [`SUITABLE_FLIGHT_WAIT`]) for a boarding flight whose crash instant falls
/// `flying` after its take-off and whose boarding has at least `left` to go; answers its
/// id and plan (read from the database: no route shows a crash before it happens).
pub async fn suitable_flight(app: &TestApp, session: &str, flying: Range<Duration>, left: Duration) -> (String, Plan) {
    let mut db = flight_db::connect(app).await;
    let deadline = tokio::time::Instant::now() + SUITABLE_FLIGHT_WAIT;
    let mut passed = Vec::new();
    loop {
        let flight = live(app, session).await;
        if flight["phase"] == "boarding" {
            let id = flight["id"].as_str().expect("id").to_owned();
            let plan = flight_db::plan(&mut db, &id).await;
            let flies = Duration::try_from(plan.crash_at - plan.take_off_at).unwrap_or_default();
            let boards = Duration::try_from(plan.take_off_at - OffsetDateTime::now_utc()).unwrap_or_default();
            if flying.contains(&flies) && boards >= left {
                return (id, plan);
            }
            passed.push(format!("flies {flies:?} with {boards:?} of boarding left"));
            wait_take_off(app, session, &flight["id"]).await;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no suitable flight in {SUITABLE_FLIGHT_WAIT:?} (flying {flying:?}, boarding left at least \
             {left:?}); the flights seen: {passed:#?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until a flight numbered at least `number` has crashed; answers it as the
/// operator reads it.
pub async fn wait_crashed_from(app: &TestApp, key: &str, number: u64) -> Value {
    let deadline = tokio::time::Instant::now() + 2 * PATIENCE;
    loop {
        let page = json_with_status(app.get("/api/operator/flight/flights?limit=20", key).await, 200).await;
        let crashed = page["data"]
            .as_array()
            .expect("data")
            .iter()
            .find(|flight| flight["phase"] == "crashed" && flight["number"].as_u64() >= Some(number))
            .cloned();
        if let Some(flight) = crashed {
            return flight;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no flight from number {number} crashed: {page:#}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
