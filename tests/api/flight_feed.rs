//! Other players' cash-outs on the live feed: a player cashes out and the pages of
//! another player of the same operator, of another operator and on another instance
//! read it from `GET /api/player/flight/live` as a `cashouts` event carrying its
//! multiplier and payout band, never an id of the player, the ticket or the operator,
//! nor an exact amount; the player's own page marks it `mine`.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::flight_support::{cashed_out_ticket, enable_flight, flight_player, simulated_idr_user, spawn_flight_app};
use crate::helpers::{TestApp, TestOperator};

/// The buyer's stake: 12 345 IDR at 1.01× pays 12 468, in the band from 10 000.
pub const STAKE: &str = "12345";
const PAYOUT: &str = "12468";

/// One page's open event stream.
pub struct Page {
    response: reqwest::Response,
    buffer: String,
    /// Every `cashouts` event read so far, raw.
    pub cash_outs: Vec<String>,
}

impl Page {
    /// Opens `session`'s stream on the instance at `address`.
    async fn open(app: &TestApp, address: &str, session: &str) -> Self {
        Self::open_url(app, &format!("{address}/api/player/flight/live"), session).await
    }

    /// Opens `session`'s stream at `url`.
    pub async fn open_url(app: &TestApp, url: &str, session: &str) -> Self {
        let response = app.client.get(url).bearer_auth(session).send().await.expect("stream");
        assert_eq!(response.status(), 200);
        Self {
            response,
            buffer: String::new(),
            cash_outs: Vec::new(),
        }
    }

    /// The answer's header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.response.headers().get(name).and_then(|value| value.to_str().ok())
    }

    /// Whether the stream ends (its events read and dropped) within `wait`.
    pub async fn ends_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.response.chunk()).await {
                Ok(Ok(Some(_event))) => {}
                Ok(Ok(None) | Err(_)) => return true,
                Err(_still_open) => return false,
            }
        }
    }

    /// Reads events until a `cashouts` event lists a cash-out at `multiplier`; that
    /// event's data. Panics after `wait`.
    pub async fn cash_out_at(&mut self, multiplier: &str, wait: Duration) -> Value {
        let deadline = Instant::now() + wait;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                if !event.starts_with("event: cashouts\n") {
                    continue;
                }
                let data = event
                    .lines()
                    .find_map(|line| line.strip_prefix("data: "))
                    .expect("data");
                self.cash_outs.push(data.to_owned());
                let body: Value = serde_json::from_str(data).expect("json");
                let listed = body["cashOuts"].as_array().expect("cashOuts");
                if listed.iter().any(|cash_out| cash_out["multiplier"] == multiplier) {
                    return body;
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.response.chunk())
                .await
                .unwrap_or_else(|_| panic!("no cash-out at {multiplier} within {wait:?}: {:?}", self.cash_outs))
                .expect("read")
                .expect("the stream ended");
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}

/// A flight-enabled operator's player with IDR to stake; its session.
pub async fn player(app: &TestApp, operator: &TestOperator, name: &str) -> String {
    simulated_idr_user(app, &operator.key, name, 1_000_000).await;
    flight_player(app, operator, name).await
}

/// What another player's page must never read of the buyer's cash-out.
pub fn assert_anonymous(raw: &[String], buyer: &str, operator: &TestOperator, ticket: &Value) {
    let ticket_id = ticket["id"].as_str().expect("ticket id");
    let operator_id = operator.id.to_string();
    for data in raw {
        for secret in [
            buyer,
            ticket_id,
            operator_id.as_str(),
            "tkt_",
            "op_",
            "usr_",
            STAKE,
            PAYOUT,
        ] {
            assert!(!data.contains(secret), "a cash-out event shows `{secret}`: {data}");
        }
        assert!(
            !data.contains("\"mine\":true"),
            "another player's cash-out is marked mine: {data}"
        );
    }
}

pub fn assert_listed(body: &Value) {
    let cash_out = body["cashOuts"]
        .as_array()
        .and_then(|listed| listed.iter().find(|cash_out| cash_out["multiplier"] == "1.01"))
        .expect("the cash-out");
    assert_eq!(
        cash_out,
        &json!({"multiplier": "1.01", "payoutAtLeast": "10000", "mine": false})
    );
    assert!(body["cashedOut"].as_u64() >= Some(1), "{body}");
    assert!(body["players"].as_u64() >= Some(1), "{body}");
    assert!(
        body["flightId"].as_str().is_some_and(|id| id.starts_with("flt_")),
        "{body}"
    );
}

#[tokio::test]
async fn a_second_player_sees_the_first_players_cash_out_with_none_of_its_identifiers() {
    let app = spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    let buyer = player(&app, &app.operator, "feed-buyer").await;
    let watcher = player(&app, &app.operator, "feed-watcher").await;
    let mut watching = Page::open(&app, &app.address, &watcher).await;
    let mut own = Page::open(&app, &app.address, &buyer).await;

    let ticket = cashed_out_ticket(&app, &buyer, STAKE).await;
    assert_eq!(ticket["payout"], PAYOUT, "{ticket}");
    let seen = watching.cash_out_at("1.01", Duration::from_secs(10)).await;
    assert_listed(&seen);
    assert_anonymous(&watching.cash_outs, "feed-buyer", &app.operator, &ticket);

    let theirs = own.cash_out_at("1.01", Duration::from_secs(10)).await;
    let listed = theirs["cashOuts"].as_array().expect("cashOuts");
    assert!(
        listed.iter().any(|c| c["multiplier"] == "1.01" && c["mine"] == true),
        "the buyer's own page marks its cash-out: {theirs}"
    );

    // A page opened afterwards is shown the flight's cash-outs at once.
    let mut late = Page::open(&app, &app.address, &watcher).await;
    let joined = late.cash_out_at("1.01", Duration::from_secs(5)).await;
    assert_eq!(joined["reset"], true, "{joined}");
    assert_anonymous(&late.cash_outs, "feed-buyer", &app.operator, &ticket);
}

#[tokio::test]
async fn a_player_of_another_operator_sees_the_cash_out_anonymised() {
    let app = spawn_flight_app().await;
    let other = app.new_operator("Other operator").await;
    enable_flight(&app, &app.operator).await;
    enable_flight(&app, &other).await;
    let buyer = player(&app, &app.operator, "feed-buyer").await;
    let watcher = player(&app, &other, "feed-elsewhere").await;
    let mut watching = Page::open(&app, &app.address, &watcher).await;

    let ticket = cashed_out_ticket(&app, &buyer, STAKE).await;
    let seen = watching.cash_out_at("1.01", Duration::from_secs(10)).await;
    assert_listed(&seen);
    assert_anonymous(&watching.cash_outs, "feed-buyer", &app.operator, &ticket);
    assert_anonymous(&watching.cash_outs, "feed-buyer", &other, &ticket);
}

#[tokio::test]
async fn a_cash_out_stored_by_one_instance_reaches_the_pages_of_another() {
    let app = spawn_flight_app().await;
    let serving = app.second_instance().await;
    enable_flight(&app, &app.operator).await;
    let buyer = player(&app, &app.operator, "feed-buyer").await;
    let watcher = player(&app, &app.operator, "feed-watcher").await;
    let mut watching = Page::open(&app, &serving, &watcher).await;

    let ticket = cashed_out_ticket(&app, &buyer, STAKE).await;
    let seen = watching.cash_out_at("1.01", Duration::from_secs(10)).await;
    assert_listed(&seen);
    assert_anonymous(&watching.cash_outs, "feed-buyer", &app.operator, &ticket);
}
