//! Ticket purchases: players buy tickets back to back while one flight boards, each a
//! new ticket (a player holds at most ten per flight, so the players take turns), through
//! the bench's wallet answering at once. Tickets are bought only during boarding, so the
//! measured time is one boarding window (up to the scenario's measured time), ending a
//! little before take-off so that no purchase meets a closed boarding.

use std::time::Duration;

use ulid::Ulid;

use crate::api::Api;
use crate::load::{LoadPlan, Request};
use crate::report::{Baseline, Scenario};
use crate::scenarios::announce;
use crate::scenarios::flight::{FlightBench, FlightPlayers, boarding_wait, boarding_with};

const NAME: &str = "flight.purchase";
const DESCRIPTION: &str =
    "POST /api/player/flight/tickets while a flight boards, a new ticket each, wallet answering at once";

/// Boarding time left unmeasured before take-off.
const BEFORE_TAKE_OFF: Duration = Duration::from_millis(300);

/// Buys a ticket as the sequence's player.
struct BuyTicket {
    api: Api,
    players: FlightPlayers,
    run: String,
}

impl Request for BuyTicket {
    async fn call(&self, _worker: usize, sequence: u64) -> Result<(), String> {
        let index = usize::try_from(sequence).unwrap_or(usize::MAX);
        let client_ticket_id = format!("{}-{sequence}", self.run);
        match self.players.buy(&self.api, index, &client_ticket_id).await {
            Ok(ticket) if ticket.status == "active" => Ok(()),
            Ok(ticket) => Err(format!("the ticket ended {}", ticket.status)),
            Err(error) => Err(error.to_string()),
        }
    }
}

/// Measures purchases over one boarding window.
pub async fn run(flight: &FlightBench<'_>) -> anyhow::Result<Scenario> {
    let bench = flight.bench;
    let boarding = Duration::from_millis(bench.settings.flight_boarding_ms);
    let live = boarding_with(
        &bench.api,
        flight.players.session(0),
        boarding / 2,
        boarding_wait(bench),
    )
    .await?;
    let window = live
        .boarding_left()
        .saturating_sub(BEFORE_TAKE_OFF)
        .min(bench.settings.measure);
    let plan = LoadPlan {
        concurrency: bench.settings.concurrency,
        warmup: Duration::ZERO,
        measure: window,
        max_requests: bench.settings.max_requests,
        pace: None,
    };
    let request = BuyTicket {
        api: bench.api.clone(),
        players: flight.players.clone(),
        run: format!("bench-buy-{}", Ulid::new().to_string().to_ascii_lowercase()),
    };
    let (load, rss) = bench.measure(plan, request).await?;
    announce(NAME, &load);
    Ok(
        Scenario::measured(NAME, DESCRIPTION, load, rss, Some(Baseline::ReadWrite))
            .with_figure("boarding_window_seconds", window.as_secs_f64()),
    )
}
