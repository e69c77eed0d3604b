//! Webhooks: with an endpoint subscribed at the bench's receiver, players buy (or, where
//! trading is not available, are launched) for the measured time; the figures are events
//! delivered per second and the lag from each event's business commit (its `createdAt`)
//! to its arrival, and the backlog (events produced, not yet delivered) sampled through
//! the buys.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use time::OffsetDateTime;

use crate::api::Api;
use crate::load::{LoadReport, Request};
use crate::local_http::LocalServer;
use crate::memory::MemoryWatch;
use crate::report::{Baseline, Scenario};
use crate::scenarios::trading::Traders;
use crate::scenarios::{Bench, announce};
use crate::webhook_sink::WebhookSink;

const NAME: &str = "webhooks";
const DESCRIPTION: &str =
    "events from the business commit to a local receiver answering 200 (latency columns: commit-to-arrival lag)";

/// How long to wait for deliveries to stop arriving once the buys have stopped.
const DRAIN_LIMIT: Duration = Duration::from_secs(30);

/// How long without a new arrival counts as drained.
const QUIET: Duration = Duration::from_secs(2);

/// How often the backlog is sampled.
const BACKLOG_EVERY: Duration = Duration::from_millis(250);

/// The business actions that cause the events: buys (`mini_app.trade.processed`) when
/// trading is available, logins (a launch and its session, `mini_app.login.succeeded`)
/// otherwise.
enum Eventful {
    Buys { api: Api, traders: Traders },
    Logins { api: Api, key: String },
}

impl Eventful {
    /// One action, causing one event.
    async fn act(&self, worker: usize, sequence: u64) -> Result<(), String> {
        match self {
            Self::Buys { api, traders } => {
                traders
                    .buy(api, worker, sequence, &format!("bench-webhook-{sequence}"))
                    .await
            }
            Self::Logins { api, key } => {
                let token = api
                    .launch(key, &format!("bench-webhook-{sequence}"))
                    .await
                    .map_err(|e| e.to_string())?;
                api.open_session(&token).await.map(drop).map_err(|e| e.to_string())
            }
        }
    }
}

/// The actions, counting the events they produced (each committed before its answer).
struct Counted {
    actions: Eventful,
    produced: Arc<AtomicU64>,
}

impl Request for Counted {
    async fn call(&self, worker: usize, sequence: u64) -> Result<(), String> {
        self.actions.act(worker, sequence).await?;
        self.produced.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// The backlog sampled through the buys: its largest and its last value.
#[derive(Default, Clone, Copy)]
struct Backlog {
    max: u64,
    last: u64,
}

/// Samples produced minus delivered every [`BACKLOG_EVERY`] until aborted.
fn sample_backlog(
    produced: Arc<AtomicU64>,
    sink: Arc<WebhookSink>,
) -> (tokio::task::JoinHandle<()>, Arc<std::sync::Mutex<Backlog>>) {
    let backlog = Arc::new(std::sync::Mutex::new(Backlog::default()));
    let shared = backlog.clone();
    let sampler = tokio::spawn(async move {
        loop {
            tokio::time::sleep(BACKLOG_EVERY).await;
            let now = produced.load(Ordering::Relaxed).saturating_sub(sink.snapshot().events);
            let mut backlog = shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            backlog.max = backlog.max.max(now);
            backlog.last = now;
        }
    });
    (sampler, backlog)
}

/// Measures delivery.
pub async fn run(bench: &Bench<'_>, traders: &Result<Traders, String>) -> anyhow::Result<Scenario> {
    let key = &bench.operator().full_key;
    let (driver, caused_by) = match traders {
        Ok(traders) => (
            Eventful::Buys {
                api: bench.api.clone(),
                traders: traders.clone(),
            },
            "mini_app.trade.processed",
        ),
        Err(_) => (
            Eventful::Logins {
                api: bench.api.clone(),
                key: key.clone(),
            },
            "mini_app.login.succeeded",
        ),
    };
    let sink = Arc::new(WebhookSink::new(OffsetDateTime::now_utc())?);
    let receiver = LocalServer::start(sink.clone()).await?;
    let url = format!("{}/webhooks", receiver.base_url());
    let endpoint = match bench.api.create_webhook_endpoint(key, &url, &[caused_by], None).await {
        Ok(endpoint) => endpoint,
        Err(error) => {
            let reason = if error.is_not_implemented() {
                format!("webhook endpoints are not served yet ({error})")
            } else {
                format!("registering the endpoint failed: {error}")
            };
            return Ok(Scenario::not_available(NAME, DESCRIPTION, reason));
        }
    };
    let watch = MemoryWatch::start(bench.service_pid);
    let mut plan = bench.plan();
    plan.warmup = Duration::ZERO;
    let produced = Arc::new(AtomicU64::new(0));
    let (sampler, backlog) = sample_backlog(produced.clone(), sink.clone());
    let counted = Counted {
        actions: driver,
        produced: produced.clone(),
    };
    let buys = crate::load::run(plan, counted).await?;
    sampler.abort();
    let delivered_during = sink.snapshot().events;
    let backlog = *backlog.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    announce(&format!("webhooks (the actions causing {caused_by})"), &buys);
    drain(&sink).await;
    let rss = watch.finish();
    // Later scenarios must not share the delivery workers with this endpoint's leftovers.
    if let Err(error) = bench.api.delete_webhook_endpoint(key, &endpoint).await {
        println!("  webhooks: could not delete the endpoint: {error}");
    }
    let received = sink.snapshot();
    if received.events == 0 {
        return Ok(Scenario::not_available(
            NAME,
            DESCRIPTION,
            format!(
                "no {caused_by} event arrived within {} s of {} actions",
                DRAIN_LIMIT.as_secs(),
                buys.ok
            ),
        ));
    }
    let load = LoadReport {
        ok: received.events,
        errors: 0,
        first_error: None,
        seconds: received.span_seconds,
        per_second: received.events as f64 / received.span_seconds.max(0.001),
        p50_ms: received.lag_p50_ms,
        p99_ms: received.lag_p99_ms,
        max_ms: received.lag_max_ms,
    };
    announce(NAME, &load);
    let description = format!("{DESCRIPTION}; events: {caused_by}");
    Ok(
        Scenario::measured(NAME, &description, load, rss, Some(Baseline::ReadWrite))
            .with_figure("events_per_action", received.events as f64 / buys.ok.max(1) as f64)
            .with_figure("actions_per_second", buys.per_second)
            .with_figure("deliveries", received.deliveries as f64)
            .with_figure("endpoints", 1.0)
            .with_figure(
                "produced_per_second",
                produced.load(Ordering::Relaxed) as f64 / buys.seconds,
            )
            .with_figure(
                "delivered_per_second_during_buys",
                delivered_during as f64 / buys.seconds,
            )
            .with_figure("backlog_max", backlog.max as f64)
            .with_figure("backlog_last", backlog.last as f64),
    )
}

/// Waits until nothing new has arrived for a while, or the limit.
pub async fn drain(sink: &WebhookSink) {
    let started = Instant::now();
    let mut last_count = sink.snapshot().deliveries;
    let mut last_change = Instant::now();
    while started.elapsed() < DRAIN_LIMIT && last_change.elapsed() < QUIET {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let count = sink.snapshot().deliveries;
        if count != last_count {
            last_count = count;
            last_change = Instant::now();
        }
    }
}
