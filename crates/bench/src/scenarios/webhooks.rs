//! Webhooks: endpoints subscribed at the bench's receiver while players buy (or, where
//! trading is not available, are launched); the figures are deliveries per second, the lag
//! from each event's business commit (its `createdAt`) to its arrival, and the backlog
//! (deliveries produced, not yet made) sampled through the buys. Two shapes: one endpoint
//! under closed-loop buys (delivery keeps pace with what the buys produce), and several
//! endpoints with the buys paced so deliveries are offered at a share of pgbench
//! read-write's rate (delivery keeps pace at the rate the target names).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use time::OffsetDateTime;

use crate::api::Api;
use crate::cpu::CpuReading;
use crate::load::{LoadReport, Request};
use crate::local_http::LocalServer;
use crate::memory::MemoryWatch;
use crate::report::{Baseline, Scenario};
use crate::scenarios::trading::Traders;
use crate::scenarios::{Bench, announce};
use crate::webhook_sink::WebhookSink;

/// The one-endpoint scenario's name.
pub const ONE_ENDPOINT: &str = "webhooks";
const ONE_ENDPOINT_DESCRIPTION: &str =
    "events from the business commit to a local receiver answering 200 (latency columns: commit-to-arrival lag)";
/// The delivery-at-rate scenario's name.
pub const AT_RATE: &str = "webhooks.at_rate";
const AT_RATE_DESCRIPTION: &str = "each event to several endpoints at a local receiver answering 200, the buys paced so \
     deliveries are offered at a share of pgbench read-write's tps (per second: deliveries made while offered; latency \
     columns: commit-to-arrival lag)";

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
    /// One action, causing one event; `name` (the client order id or the external user
    /// id) is the scenario's own, or a buy would replay another scenario's order of the
    /// same name and cause no event.
    async fn act(&self, worker: usize, sequence: u64, name: &str) -> Result<(), String> {
        match self {
            Self::Buys { api, traders } => traders.buy(api, worker, sequence, name).await,
            Self::Logins { api, key } => {
                let token = api.launch(key, name).await.map_err(|e| e.to_string())?;
                api.open_session(&token).await.map(drop).map_err(|e| e.to_string())
            }
        }
    }
}

/// The actions, counting the events they produced (each committed before its answer).
struct Counted {
    actions: Eventful,
    /// What the scenario's action names start with.
    prefix: &'static str,
    produced: Arc<AtomicU64>,
}

impl Request for Counted {
    async fn call(&self, worker: usize, sequence: u64) -> Result<(), String> {
        let name = format!("{}-{sequence}", self.prefix);
        self.actions.act(worker, sequence, &name).await?;
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

/// Samples the deliveries produced (actions times `endpoints`) minus those made every
/// [`BACKLOG_EVERY`] until aborted.
fn sample_backlog(
    produced: Arc<AtomicU64>,
    endpoints: u64,
    sink: Arc<WebhookSink>,
) -> (tokio::task::JoinHandle<()>, Arc<std::sync::Mutex<Backlog>>) {
    let backlog = Arc::new(std::sync::Mutex::new(Backlog::default()));
    let shared = backlog.clone();
    let sampler = tokio::spawn(async move {
        loop {
            tokio::time::sleep(BACKLOG_EVERY).await;
            let now = (produced.load(Ordering::Relaxed) * endpoints).saturating_sub(sink.snapshot().events);
            let mut backlog = shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            backlog.max = backlog.max.max(now);
            backlog.last = now;
        }
    });
    (sampler, backlog)
}

/// How one delivery scenario loads the service.
struct Shape {
    name: &'static str,
    description: &'static str,
    /// What its actions' names (client order ids, external user ids) start with.
    prefix: &'static str,
    /// Endpoints subscribed, each getting every event.
    endpoints: usize,
    /// The interval between two actions, all workers together; closed loop when `None`.
    pace: Option<Duration>,
}

/// Delivery to one endpoint under closed-loop buys.
pub async fn one_endpoint(bench: &Bench<'_>, traders: &Result<Traders, String>) -> anyhow::Result<Scenario> {
    let shape = Shape {
        name: ONE_ENDPOINT,
        description: ONE_ENDPOINT_DESCRIPTION,
        prefix: "bench-webhook",
        endpoints: 1,
        pace: None,
    };
    measure(bench, traders, &shape).await
}

/// Delivery to `settings.webhook_rate_endpoints` endpoints with the buys paced so that
/// deliveries are offered at `settings.webhook_offered_share` of `read_write` (pgbench
/// read-write's tps in this run).
pub async fn at_rate(
    bench: &Bench<'_>,
    traders: &Result<Traders, String>,
    read_write: Option<f64>,
) -> anyhow::Result<Scenario> {
    let settings = bench.settings;
    let Some(read_write) = read_write.filter(|tps| *tps > 0.0) else {
        return Ok(Scenario::not_available(
            AT_RATE,
            AT_RATE_DESCRIPTION,
            "pgbench read-write was not measured",
        ));
    };
    let offered = read_write * settings.webhook_offered_share;
    let actions = offered / settings.webhook_rate_endpoints as f64;
    let shape = Shape {
        name: AT_RATE,
        description: AT_RATE_DESCRIPTION,
        prefix: "bench-webhook-rate",
        endpoints: settings.webhook_rate_endpoints,
        pace: Some(Duration::from_secs_f64(1.0 / actions)),
    };
    Ok(measure(bench, traders, &shape)
        .await?
        .with_figure("offered_per_second", offered)
        .with_figure("offered_share_of_read_write", settings.webhook_offered_share))
}

/// Registers the shape's endpoints, runs its actions for the measured time, waits for
/// the deliveries to stop arriving, and deletes the endpoints.
async fn measure(bench: &Bench<'_>, traders: &Result<Traders, String>, shape: &Shape) -> anyhow::Result<Scenario> {
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
    let mut endpoints = Vec::with_capacity(shape.endpoints);
    for index in 0..shape.endpoints {
        let url = format!("{}/webhooks/{index}", receiver.base_url());
        match bench.api.create_webhook_endpoint(key, &url, &[caused_by], None).await {
            Ok(endpoint) => endpoints.push(endpoint),
            Err(error) => {
                delete_endpoints(bench, &endpoints).await;
                let reason = if error.is_not_implemented() {
                    format!("webhook endpoints are not served yet ({error})")
                } else {
                    format!("registering an endpoint failed: {error}")
                };
                return Ok(Scenario::not_available(shape.name, shape.description, reason));
            }
        }
    }
    let watch = MemoryWatch::start(bench.service_pid);
    let mut plan = bench.plan();
    plan.warmup = Duration::ZERO;
    plan.pace = shape.pace;
    let produced = Arc::new(AtomicU64::new(0));
    let (sampler, backlog) = sample_backlog(produced.clone(), shape.endpoints as u64, sink.clone());
    let counted = Counted {
        actions: driver,
        prefix: shape.prefix,
        produced: produced.clone(),
    };
    let (buys, cpu_at_start) = crate::load::run_watched(plan, counted, || CpuReading::take(&bench.parties)).await?;
    sampler.abort();
    let delivered_during = sink.snapshot().events;
    // Per delivery made while the actions ran, the actions' own share included.
    let cpu = CpuReading::take(&bench.parties).per_request_since(&cpu_at_start, delivered_during);
    let backlog = *backlog.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    announce(&format!("{} (the actions causing {caused_by})", shape.name), &buys);
    drain(&sink).await;
    let rss = watch.finish();
    // Later scenarios must not share the delivery workers with these endpoints' leftovers.
    delete_endpoints(bench, &endpoints).await;
    let received = sink.snapshot();
    if received.events == 0 {
        return Ok(Scenario::not_available(
            shape.name,
            shape.description,
            format!(
                "no {caused_by} event arrived within {} s of {} actions",
                DRAIN_LIMIT.as_secs(),
                buys.ok
            ),
        ));
    }
    let delivered_per_second_during = delivered_during as f64 / buys.seconds;
    let per_second = match shape.pace {
        // Paced: what delivery kept up with while the deliveries were offered.
        Some(_) => delivered_per_second_during,
        // Closed loop: everything the buys produced, over the time it took to arrive.
        None => received.events as f64 / received.span_seconds.max(0.001),
    };
    let load = LoadReport {
        ok: received.events,
        errors: buys.errors,
        first_error: buys.first_error.clone(),
        seconds: received.span_seconds,
        per_second,
        p50_ms: received.lag_p50_ms,
        p99_ms: received.lag_p99_ms,
        max_ms: received.lag_max_ms,
        cpu,
    };
    announce(shape.name, &load);
    let description = format!("{}; events: {caused_by}", shape.description);
    let produced = produced.load(Ordering::Relaxed) * shape.endpoints as u64;
    Ok(
        Scenario::measured(shape.name, &description, load, rss, Some(Baseline::ReadWrite))
            .with_figure("deliveries_per_action", received.events as f64 / buys.ok.max(1) as f64)
            .with_figure("actions_per_second", buys.per_second)
            .with_figure("deliveries", received.deliveries as f64)
            .with_figure("endpoints", shape.endpoints as f64)
            .with_figure("produced_per_second", produced as f64 / buys.seconds)
            .with_figure("delivered_per_second_during_buys", delivered_per_second_during)
            .with_figure("backlog_max", backlog.max as f64)
            .with_figure("backlog_last", backlog.last as f64),
    )
}

/// Deletes the endpoints registered for the bench's operator, so later scenarios share no
/// delivery worker with their leftovers.
async fn delete_endpoints(bench: &Bench<'_>, endpoints: &[String]) {
    let key = &bench.operator().full_key;
    for endpoint in endpoints {
        if let Err(error) = bench.api.delete_webhook_endpoint(key, endpoint).await {
            println!("  webhooks: could not delete endpoint {endpoint}: {error}");
            return;
        }
    }
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
