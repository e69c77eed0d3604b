//! The live feed's fan-out: `OPINION_BENCH_FLIGHT_PAGES` pages hold
//! `GET /api/player/flight/live` open on the feed's own listener, where a load balancer
//! routes them (players' sessions shared round robin, as a player with several tabs
//! would), then the run watches the flight change phase. For every
//! page and change, the delay is from the instant of the change the event names
//! (`boardingAt`, `takeOffAt` or `endedAt`) to the page reading the event; the figure of
//! a change is its last page. The `cashouts` events the pages read (the flight's counts
//! and other players' cash-outs, batched by the feed) are counted beside them. The
//! service's memory is watched throughout, and its growth from before the pages to all
//! of them connected is reported per page.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use reqwest::Client;
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio::sync::Semaphore;

use crate::load::{LoadReport, micros, new_histogram};
use crate::memory::{MemoryWatch, rss_kib};
use crate::report::Scenario;
use crate::scenarios::flight::FlightBench;

const NAME: &str = "flight.live_fanout";
const DESCRIPTION: &str = "GET /api/player/flight/live on the feed's own listener, held open by every page; delay from a phase change to each page";

/// Phase changes watched.
const CHANGES: usize = 3;

/// Pages connecting at once.
const CONNECTING: usize = 64;

/// One page's reading of one change: which change, and its delay.
type Delivery = (String, Duration);

/// Connects the pages, watches `CHANGES` phase changes reach them, and disconnects.
pub async fn run(flight: &FlightBench<'_>) -> anyhow::Result<Scenario> {
    let bench = flight.bench;
    let pages = bench.settings.flight_pages;
    let rss_before = rss_kib(bench.service_pid).unwrap_or(0);
    let watch = MemoryWatch::start(bench.service_pid);
    let client = Client::builder().build()?;
    let url = flight.live_feed.to_owned();
    let deliveries: Arc<Mutex<Vec<Delivery>>> = Arc::default();
    let cash_out_events = Arc::new(AtomicU64::new(0));
    let connected = Arc::new(Semaphore::new(0));
    let connecting = Arc::new(Semaphore::new(CONNECTING));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(pages);
    for page in 0..pages {
        let session = flight.players.session(page).to_owned();
        let (client, url, deliveries) = (client.clone(), url.clone(), deliveries.clone());
        let cash_out_events = cash_out_events.clone();
        let (connected, connecting) = (connected.clone(), connecting.clone());
        tasks.push(tokio::spawn(async move {
            let permit = connecting.acquire_owned().await.ok();
            read_page(&client, &url, &session, &deliveries, &cash_out_events, move || {
                drop(permit);
                connected.add_permits(1);
            })
            .await
        }));
    }
    let all = u32::try_from(pages).unwrap_or(u32::MAX);
    let wait = Duration::from_secs(120);
    let joined = tokio::time::timeout(wait, connected.acquire_many(all)).await;
    anyhow::ensure!(joined.is_ok(), "not every page connected within {} s", wait.as_secs());
    let connect_seconds = started.elapsed().as_secs_f64();
    let rss_connected = rss_kib(bench.service_pid).unwrap_or(0);
    println!("  {NAME}: {pages} pages connected in {connect_seconds:.1} s");

    let observed = Instant::now();
    let deadline = observed + Duration::from_secs(240);
    while changes_complete(&deliveries, pages) < CHANGES && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let seconds = observed.elapsed().as_secs_f64();
    // A page's stream never ends by itself: one that did failed.
    let dropped = tasks.iter().filter(|task| task.is_finished()).count();
    for task in &tasks {
        task.abort();
    }
    let rss = watch.finish();
    let deliveries = std::mem::take(&mut *deliveries.lock().unwrap_or_else(PoisonError::into_inner));
    summarise(&deliveries, pages, dropped, seconds, rss).map(|scenario| {
        scenario
            .with_figure("pages", pages as f64)
            .with_figure("connect_seconds", connect_seconds)
            .with_figure("rss_before_mib", rss_before as f64 / 1024.0)
            .with_figure("rss_all_connected_mib", rss_connected as f64 / 1024.0)
            .with_figure(
                "rss_kib_per_page",
                rss_connected.saturating_sub(rss_before) as f64 / pages as f64,
            )
            .with_figure("cash_out_events", cash_out_events.load(Ordering::Relaxed) as f64)
    })
}

/// One page: reads the stream, recording each change of phase after the first event.
async fn read_page(
    client: &Client,
    url: &str,
    session: &str,
    deliveries: &Mutex<Vec<Delivery>>,
    cash_out_events: &AtomicU64,
    on_first: impl FnOnce(),
) -> Result<(), String> {
    let mut response = client
        .get(url)
        .bearer_auth(session)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let mut on_first = Some(on_first);
    let mut buffer = String::new();
    let mut phase: Option<String> = None;
    while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
        let read_at = OffsetDateTime::now_utc();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let Some(data) = event.lines().find_map(|line| line.strip_prefix("data: ")) else {
                continue;
            };
            if event.lines().any(|line| line == "event: cashouts") {
                cash_out_events.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let Ok(snapshot) = serde_json::from_str::<Value>(data) else {
                continue;
            };
            let now = snapshot.get("phase").and_then(Value::as_str).map(str::to_owned);
            if phase.is_some()
                && now != phase
                && let Some((change, at)) = change_of(&snapshot)
            {
                let delay = Duration::try_from(read_at - at).unwrap_or_default();
                deliveries
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push((change, delay));
            }
            phase = now;
            if let Some(first) = on_first.take() {
                first();
            }
        }
    }
    Ok(())
}

/// The change an event shows (`<flight> <phase>`) and the instant it happened.
fn change_of(snapshot: &Value) -> Option<(String, OffsetDateTime)> {
    let phase = snapshot.get("phase")?.as_str()?;
    let field = match phase {
        "boarding" => "boardingAt",
        "in_flight" => "takeOffAt",
        _ => "endedAt",
    };
    let at = OffsetDateTime::parse(snapshot.get(field)?.as_str()?, &Rfc3339).ok()?;
    Some((format!("{} {phase}", snapshot.get("id")?.as_str()?), at))
}

/// How many changes every page has read.
fn changes_complete(deliveries: &Mutex<Vec<Delivery>>, pages: usize) -> usize {
    let deliveries = deliveries.lock().unwrap_or_else(PoisonError::into_inner);
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for (change, _) in deliveries.iter() {
        *counts.entry(change.as_str()).or_default() += 1;
    }
    counts.values().filter(|count| **count >= pages).count()
}

/// The delays as a load report (deliveries per second of watching, p50/p99 over every
/// page's delay, pages whose stream ended as errors) with each change's last page.
fn summarise(
    deliveries: &[Delivery],
    pages: usize,
    dropped: usize,
    seconds: f64,
    rss: u64,
) -> anyhow::Result<Scenario> {
    let mut histogram = new_histogram()?;
    let mut last_page = std::collections::BTreeMap::<&str, (usize, Duration)>::new();
    for (change, delay) in deliveries {
        histogram.saturating_record(micros(*delay));
        let entry = last_page.entry(change.as_str()).or_default();
        entry.0 += 1;
        entry.1 = entry.1.max(*delay);
    }
    let complete: Vec<f64> = last_page
        .values()
        .filter(|(count, _)| *count >= pages)
        .map(|(_, last)| last.as_secs_f64() * 1000.0)
        .collect();
    let ms = |us: u64| us as f64 / 1000.0;
    let load = LoadReport {
        ok: deliveries.len() as u64,
        errors: dropped as u64,
        first_error: (complete.len() < CHANGES)
            .then(|| format!("{} of {CHANGES} changes reached every page", complete.len())),
        seconds,
        per_second: deliveries.len() as f64 / seconds,
        p50_ms: ms(histogram.value_at_quantile(0.50)),
        p99_ms: ms(histogram.value_at_quantile(0.99)),
        max_ms: ms(histogram.max()),
        cpu: None,
    };
    crate::scenarios::announce(NAME, &load);
    let worst = complete.iter().copied().fold(0.0, f64::max);
    let mean = if complete.is_empty() {
        0.0
    } else {
        complete.iter().sum::<f64>() / complete.len() as f64
    };
    println!("  {NAME}: last page {mean:.1} ms after a change on average, {worst:.1} ms at worst");
    Ok(Scenario::measured(NAME, DESCRIPTION, load, rss, None)
        .counting_other_than_requests()
        .with_figure("changes", complete.len() as f64)
        .with_figure("last_page_ms_mean", mean)
        .with_figure("last_page_ms_max", worst))
}
