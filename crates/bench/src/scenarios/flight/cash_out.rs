//! The cash-out burst: as many players as `OPINION_BENCH_FLIGHT_CASH_OUTS` each buy one
//! ticket on one boarding flight, then all ask to cash out at the same moment, as soon
//! as the flight reaches the lowest cash-out (1.01x). Every request's latency is
//! recorded; the throughput is the decided answers over the burst's span (first request
//! to last answer). Afterwards the database must show every ticket decided once: each
//! `cashed_out` answer a cashed-out ticket with exactly one payout, every other ticket
//! lost to the crash. A flight that crashes before the burst starts is skipped.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use opinion_core::FlightId;
use ulid::Ulid;

use crate::load::{LoadReport, micros, new_histogram};
use crate::memory::MemoryWatch;
use crate::report::{Baseline, Scenario};
use crate::scenarios::announce;
use crate::scenarios::flight::{FlightBench, Live, boarding_wait, boarding_with, live};
use crate::seed::uuid_text;

const NAME: &str = "flight.cash_out_burst";
const DESCRIPTION: &str =
    "POST /api/player/flight/tickets/{id}/cash-out by every player of one flight at once, from 1.01x";

/// When the curve reaches 1.01x after take-off, and a margin for the clocks.
const LOWEST_CASH_OUT: Duration = Duration::from_millis(166 + 30);

/// Boarding left unused before take-off.
const BEFORE_TAKE_OFF: Duration = Duration::from_millis(300);

/// Flights tried before giving up (each crashing before the burst).
const ATTEMPTS: usize = 3;

/// What one cash-out request came to.
enum Answer {
    Won,
    Lost,
    Failed(String),
}

/// Runs the burst on the first flight that stays up long enough to start it.
pub async fn run(flight: &FlightBench<'_>) -> anyhow::Result<Scenario> {
    for attempt in 1..=ATTEMPTS {
        match burst(flight).await? {
            Some(scenario) => return Ok(scenario),
            None => println!("  {NAME}: flight {attempt} crashed before the burst; trying the next one"),
        }
    }
    Ok(Scenario::not_available(
        NAME,
        DESCRIPTION,
        format!("{ATTEMPTS} flights in a row crashed before 1.01x"),
    ))
}

/// One flight's burst; `None` when it crashed before the burst could start.
async fn burst(flight: &FlightBench<'_>) -> anyhow::Result<Option<Scenario>> {
    let bench = flight.bench;
    let api = &bench.api;
    let boarding = Duration::from_millis(bench.settings.flight_boarding_ms);
    let boarded = boarding_with(api, flight.players.session(0), boarding * 3 / 4, boarding_wait(bench)).await?;
    let run = format!("bench-burst-{}", Ulid::new().to_string().to_ascii_lowercase());
    let tickets = buy_one_each(flight, &boarded, &run).await?;
    anyhow::ensure!(!tickets.is_empty(), "no ticket of the burst was bought during boarding");
    tokio::time::sleep(boarded.boarding_left() + LOWEST_CASH_OUT).await;
    let now = live(api, flight.players.session(0)).await?;
    if now.is_none_or(|now| now.id != boarded.id || now.phase != "in_flight") {
        return Ok(None);
    }

    let watch = MemoryWatch::start(bench.service_pid);
    let started = Instant::now();
    let mut requests = Vec::with_capacity(tickets.len());
    for (index, ticket) in tickets.iter().cloned() {
        let (api, players) = (api.clone(), flight.players.clone());
        requests.push(tokio::spawn(async move {
            let begun = Instant::now();
            let answer = match players.cash_out(&api, index, &ticket).await {
                Ok(status) if status == "cashed_out" => Answer::Won,
                Ok(status) => Answer::Failed(format!("the ticket is {status}")),
                Err(error) if error.detail.starts_with("flight_crashed") => Answer::Lost,
                Err(error) => Answer::Failed(error.to_string()),
            };
            (begun.elapsed(), Instant::now(), answer)
        }));
    }
    let mut histogram = new_histogram()?;
    let (mut won, mut lost, mut errors, mut first_error, mut last) = (0_u64, 0_u64, 0_u64, None, started);
    for request in requests {
        let (latency, finished, answer) = request.await?;
        last = last.max(finished);
        match answer {
            Answer::Won => won += 1,
            Answer::Lost => lost += 1,
            Answer::Failed(error) => {
                errors += 1;
                first_error.get_or_insert(error);
                continue;
            }
        }
        histogram.saturating_record(micros(latency));
    }
    let rss = watch.finish();
    let seconds = last.duration_since(started).as_secs_f64();
    let ms = |us: u64| us as f64 / 1000.0;
    let load = LoadReport {
        ok: won + lost,
        errors,
        first_error,
        seconds,
        per_second: (won + lost) as f64 / seconds,
        p50_ms: ms(histogram.value_at_quantile(0.50)),
        p99_ms: ms(histogram.value_at_quantile(0.99)),
        max_ms: ms(histogram.max()),
        cpu: None,
    };
    announce(NAME, &load);
    let outcome = decided(flight, &boarded, &run).await?;
    let once = outcome.cashed_out == won && outcome.cashed_out + outcome.lost == tickets.len() as u64;
    let once = once && outcome.payouts == outcome.cashed_out && outcome.paid_tickets == outcome.cashed_out;
    println!(
        "  {NAME}: {} tickets, {won} cashed out, {lost} lost at the crash; stored: {} cashed out with {} payouts, {} lost; decided once: {once}",
        tickets.len(),
        outcome.cashed_out,
        outcome.payouts,
        outcome.lost
    );
    Ok(Some(
        Scenario::measured(NAME, DESCRIPTION, load, rss, Some(Baseline::ReadWrite))
            .with_figure("tickets", tickets.len() as f64)
            .with_figure("cashed_out", won as f64)
            .with_figure("lost_to_the_crash", lost as f64)
            .with_figure("decided_once", if once { 1.0 } else { 0.0 }),
    ))
}

/// Each player buys one ticket on the boarding flight until boarding is nearly over;
/// the players and tickets bought (`active`).
async fn buy_one_each(flight: &FlightBench<'_>, boarded: &Live, run: &str) -> anyhow::Result<Vec<(usize, String)>> {
    let count = flight.bench.settings.flight_cash_outs.min(flight.players.len());
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..flight.bench.settings.concurrency {
        let (api, players, next) = (flight.bench.api.clone(), flight.players.clone(), next.clone());
        let (boarded, run) = (boarded.clone(), run.to_owned());
        workers.push(tokio::spawn(async move {
            let mut bought = Vec::new();
            while boarded.boarding_left() > BEFORE_TAKE_OFF {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    break;
                }
                if let Ok(ticket) = players.buy(&api, index, &format!("{run}-{index}")).await
                    && ticket.status == "active"
                {
                    bought.push((index, ticket.id));
                }
            }
            bought
        }));
    }
    let mut tickets = Vec::new();
    for worker in workers {
        tickets.extend(worker.await?);
    }
    if tickets.len() < count {
        println!(
            "  {NAME}: {} of {count} tickets bought before take-off (raise OPINION_BENCH_FLIGHT_BOARDING_MS for more)",
            tickets.len()
        );
    }
    Ok(tickets)
}

/// What the database holds for the burst's tickets.
struct Stored {
    cashed_out: u64,
    lost: u64,
    payouts: u64,
    paid_tickets: u64,
}

/// The burst's tickets once none is still flying (waiting up to a minute for the crash
/// and the settlement of tickets whose cash-out failed).
async fn decided(flight: &FlightBench<'_>, boarded: &Live, run: &str) -> anyhow::Result<Stored> {
    let id: FlightId = boarded.id.parse().map_err(|e| anyhow::anyhow!("{}: {e}", boarded.id))?;
    let flight_uuid = uuid_text(id.ulid());
    let operator = &flight.bench.operator().uuid;
    let pattern = format!("{run}-%");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let row = flight
            .db
            .query_one(
                "SELECT count(*) FILTER (WHERE status = 'cashed_out'), count(*) FILTER (WHERE status = 'lost'),
                        count(*) FILTER (WHERE status IN ('pending', 'active'))
                 FROM flight_tickets
                 WHERE operator_id = $1::text::uuid AND flight_id = $2::text::uuid AND client_ticket_id LIKE $3",
                &[operator, &flight_uuid, &pattern],
            )
            .await?;
        let flying: i64 = row.get(2);
        if flying == 0 || Instant::now() >= deadline {
            let payouts = flight
                .db
                .query_one(
                    "SELECT count(*), count(DISTINCT w.ticket_id)
                     FROM wallet_operations w
                     JOIN flight_tickets t ON t.operator_id = w.operator_id AND t.id = w.ticket_id
                     WHERE w.operator_id = $1::text::uuid AND w.flow = 'flight_ticket_payout'
                       AND t.flight_id = $2::text::uuid AND t.client_ticket_id LIKE $3",
                    &[operator, &flight_uuid, &pattern],
                )
                .await?;
            let count = |value: i64| u64::try_from(value).unwrap_or(0);
            return Ok(Stored {
                cashed_out: count(row.get(0)),
                lost: count(row.get(1)),
                payouts: count(payouts.get(0)),
                paid_tickets: count(payouts.get(1)),
            });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
