//! The flight product's scenarios, against a service of their own that drives flights
//! with the bench's boarding and pause (`OPINION_BENCH_FLIGHT_*`): ticket purchases
//! while a flight boards, a cash-out burst on one flight, the live feed fanned out to
//! thousands of pages, a million-ticket export and the finalization of a million-ticket
//! period. The operator is enabled and given terms with bulk SQL, as the rest of the seed
//! is; its players are launched over HTTP.

mod cash_out;
mod export;
mod fanout;
mod finalize;
mod players;
mod purchase;

use std::time::Duration;

use anyhow::Context;
use reqwest::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio_postgres::Client;
use ulid::Ulid;

use crate::api::{Api, CallError};
use crate::report::Scenario;
use crate::scenarios::Bench;
use crate::seed::uuid_text;
use crate::service::AdminCommand;

pub use players::FlightPlayers;

/// The stake of every bench ticket, rupiah (the seeded terms' minimum).
const STAKE: &str = "1000";

/// What the flight scenarios share.
pub struct FlightBench<'a> {
    /// The run's bench (settings, API, service process).
    pub bench: &'a Bench<'a>,
    /// The service's database, for seeding and for checking outcomes.
    pub db: &'a Client,
    /// The enabled operator's players, each with a flight session.
    pub players: FlightPlayers,
    /// The seeded terms version (a ticket's foreign key), as PostgreSQL reads a uuid.
    pub terms_uuid: String,
    /// Platform staff's command over the service's database.
    pub admin: &'a AdminCommand,
    /// The live feed's URL on its own listener, where a load balancer would send pages.
    pub live_feed: &'a str,
}

/// Every flight scenario, in order; the purchases and the burst first, while no seeded
/// ticket weighs on the tables, the export and the finalization of a period last.
pub async fn run(
    bench: &Bench<'_>,
    db: &Client,
    wallet_url: &str,
    admin: &AdminCommand,
    live_feed: &str,
) -> anyhow::Result<Vec<Scenario>> {
    let terms_uuid = enable(bench, db, wallet_url).await?;
    let count = bench.settings.flight_cash_outs.max(bench.settings.concurrency * 8);
    println!("flight: launching {count} players into flight…");
    let players = FlightPlayers::launch(bench, count).await?;
    let flight = FlightBench {
        bench,
        db,
        players,
        terms_uuid,
        admin,
        live_feed,
    };
    let mut results = vec![purchase::run(&flight).await?];
    results.push(cash_out::run(&flight).await?);
    results.push(fanout::run(&flight).await?);
    results.push(export::run(&flight).await?);
    results.push(finalize::run(&flight).await?);
    Ok(results)
}

/// Enables flight for the bench's operator with terms in force (bulk SQL, as platform
/// staff's command would store them) and points its wallet adapter at the bench's
/// wallet; the terms version's uuid.
async fn enable(bench: &Bench<'_>, db: &Client, wallet_url: &str) -> anyhow::Result<String> {
    let operator = bench.operator();
    let terms = uuid_text(Ulid::new());
    db.execute(
        "INSERT INTO flight_terms (operator_id, id, effective_from, share_bps, min_stake, max_stake, max_payout,
                                   tickets_per_flight, settlement_period, payment_due_days, created_at, created_by)
         VALUES ($1::text::uuid, $2::text::uuid, now() - interval '1 day', 1500, 1000, 1000000, 1000000000000,
                 10, 'calendar_month', 15, now(), 'bench')",
        &[&operator.uuid, &terms],
    )
    .await
    .context("seeding flight terms")?;
    db.execute(
        "INSERT INTO flight_enablements (operator_id, enabled, changed_at, changed_by)
         VALUES ($1::text::uuid, true, now(), 'bench')",
        &[&operator.uuid],
    )
    .await
    .context("enabling flight")?;
    let body = json!({ "baseUrl": wallet_url, "timeoutMs": 10_000 });
    bench
        .api
        .call(
            Method::PUT,
            "/api/operator/wallet-adapter",
            Some(&operator.full_key),
            Some(&body),
        )
        .await
        .context("configuring the wallet adapter")?;
    Ok(terms)
}

/// Rows per second of PostgreSQL's own `COPY (query) TO STDOUT (FORMAT csv)`, read to
/// its end: the baseline of the scenarios that stream many rows.
async fn copy_rows_per_second(db: &Client, query: &str) -> anyhow::Result<f64> {
    let started = std::time::Instant::now();
    let stream = db
        .copy_out(format!("COPY ({query}) TO STDOUT (FORMAT csv)").as_str())
        .await?;
    let mut stream = std::pin::pin!(stream);
    let mut rows = 0_u64;
    while let Some(chunk) = futures_util::StreamExt::next(&mut stream).await {
        rows += chunk?.iter().filter(|byte| **byte == b'\n').count() as u64;
    }
    Ok(rows as f64 / started.elapsed().as_secs_f64())
}

/// The live flight as a page reads it.
#[derive(Debug, Clone)]
pub struct Live {
    /// `flt_…`
    pub id: String,
    /// `boarding`, `in_flight`, `crashed` or `cancelled`.
    pub phase: String,
    pub take_off_at: OffsetDateTime,
}

impl Live {
    /// Reads the snapshot route's (or a feed event's) JSON.
    pub fn from_json(value: &Value) -> Option<Self> {
        let instant = |name: &str| {
            value
                .get(name)
                .and_then(Value::as_str)
                .and_then(|text| OffsetDateTime::parse(text, &Rfc3339).ok())
        };
        Some(Self {
            id: value.get("id")?.as_str()?.to_owned(),
            phase: value.get("phase")?.as_str()?.to_owned(),
            take_off_at: instant("takeOffAt")?,
        })
    }

    /// How long until take-off, zero once past.
    pub fn boarding_left(&self) -> Duration {
        Duration::try_from(self.take_off_at - OffsetDateTime::now_utc()).unwrap_or_default()
    }
}

/// The flight being played, as `session`'s page reads it.
pub async fn live(api: &Api, session: &str) -> Result<Option<Live>, CallError> {
    let snapshot = api.call(Method::GET, "/api/player/flight", Some(session), None).await?;
    Ok(Live::from_json(&snapshot))
}

/// Waits (up to `within`) for a flight boarding with at least `left` to go.
pub async fn boarding_with(api: &Api, session: &str, left: Duration, within: Duration) -> anyhow::Result<Live> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if let Some(live) = live(api, session).await?
            && live.phase == "boarding"
            && live.boarding_left() >= left
        {
            return Ok(live);
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "no flight boarded with {} ms left within {} s",
            left.as_millis(),
            within.as_secs()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// How long the scenarios wait for a flight to board: a long flight, then boarding.
pub fn boarding_wait(bench: &Bench<'_>) -> Duration {
    Duration::from_secs(180) + Duration::from_millis(bench.settings.flight_boarding_ms)
}
