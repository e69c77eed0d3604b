//! Webhook delivery to many endpoints. Head-of-line blocking: one operator's healthy
//! endpoints (each subscribed, so each gets every event) measured at a paced event rate,
//! then again with one more endpoint that answers only after a delay; the healthy
//! endpoints' lag must not change. Growth: deliveries with many endpoints spread over the
//! operators, under the closed-loop buys.

use std::sync::Arc;
use std::time::{Duration, Instant};

use time::OffsetDateTime;
use tokio::time::MissedTickBehavior;

use crate::load::LoadReport;
use crate::local_http::LocalServer;
use crate::memory::MemoryWatch;
use crate::pool_waits::PoolCounters;
use crate::report::Scenario;
use crate::scenarios::trading::{NewBuy, Traders};
use crate::scenarios::webhooks::drain;
use crate::scenarios::{Bench, announce};
use crate::seed::SeededOperator;
use crate::webhook_sink::WebhookSink;

/// The event every endpoint subscribes to: one per buy.
const EVENT: &str = "mini_app.trade.processed";

const FANOUT: &str = "webhooks.fanout";
const FANOUT_DESCRIPTION: &str =
    "healthy endpoints, each getting every event at a paced rate (per second: deliveries; latency: their lag)";
const WITH_SLOW: &str = "webhooks.fanout_with_slow";
const WITH_SLOW_DESCRIPTION: &str =
    "the same healthy endpoints with one more answering after a delay (figures: the healthy ones only)";
const GROWTH: &str = "growth.webhooks.endpoints";
const GROWTH_DESCRIPTION: &str =
    "endpoints spread over the operators, buys closed-loop on every operator (per second: deliveries during the buys)";

/// The time limit the slow endpoint is registered with: longer than its delay, so its
/// deliveries succeed, slowly.
const SLOW_TIMEOUT_SECONDS: u32 = 30;

/// Endpoints registered on one operator, deleted when done with.
struct Endpoints<'a> {
    bench: &'a Bench<'a>,
    registered: Vec<(String, String)>,
}

impl<'a> Endpoints<'a> {
    fn new(bench: &'a Bench<'a>) -> Self {
        Self {
            bench,
            registered: Vec::new(),
        }
    }

    /// Registers `url` for the operator whose full key is `key`.
    async fn add(&mut self, key: &str, url: &str, timeout: Option<u32>) -> Result<(), String> {
        let id = self
            .bench
            .api
            .create_webhook_endpoint(key, url, &[EVENT], timeout)
            .await
            .map_err(|error| format!("registering an endpoint failed: {error}"))?;
        self.registered.push((key.to_owned(), id));
        Ok(())
    }

    /// Deletes every endpoint registered, so later scenarios share no delivery worker
    /// with their leftovers.
    async fn delete_all(self) {
        for (key, id) in &self.registered {
            if let Err(error) = self.bench.api.delete_webhook_endpoint(key, id).await {
                println!("  webhooks: could not delete endpoint {id}: {error}");
                return;
            }
        }
    }
}

/// The healthy endpoints without and with the slow one; `traders` buy for the first
/// operator.
pub async fn slow_endpoint(bench: &Bench<'_>, traders: &Result<Traders, String>) -> anyhow::Result<Vec<Scenario>> {
    let traders = match traders {
        Ok(traders) => traders.clone(),
        Err(reason) => {
            return Ok(vec![
                Scenario::not_available(FANOUT, FANOUT_DESCRIPTION, reason.clone()),
                Scenario::not_available(WITH_SLOW, WITH_SLOW_DESCRIPTION, reason.clone()),
            ]);
        }
    };
    let settings = bench.settings;
    let key = bench.operator().full_key.clone();
    let healthy = Arc::new(WebhookSink::new(OffsetDateTime::now_utc())?);
    let receiver = LocalServer::start(healthy.clone()).await?;
    let delay = Duration::from_millis(settings.slow_endpoint_ms);
    let slow = Arc::new(WebhookSink::slow(OffsetDateTime::now_utc(), delay)?);
    let slow_receiver = LocalServer::start(slow.clone()).await?;
    let mut endpoints = Endpoints::new(bench);
    for index in 0..settings.fanout_endpoints {
        let url = format!("{}/healthy/{index}", receiver.base_url());
        if let Err(reason) = endpoints.add(&key, &url, None).await {
            endpoints.delete_all().await;
            return Ok(vec![
                Scenario::not_available(FANOUT, FANOUT_DESCRIPTION, reason.clone()),
                Scenario::not_available(WITH_SLOW, WITH_SLOW_DESCRIPTION, reason),
            ]);
        }
    }
    let without = paced_phase(bench, &traders, &healthy, "fanout").await?;
    let without = fanout_scenario(FANOUT, FANOUT_DESCRIPTION, without, settings.fanout_endpoints);
    let url = format!("{}/slow", slow_receiver.base_url());
    if let Err(reason) = endpoints.add(&key, &url, Some(SLOW_TIMEOUT_SECONDS)).await {
        endpoints.delete_all().await;
        return Ok(vec![
            without,
            Scenario::not_available(WITH_SLOW, WITH_SLOW_DESCRIPTION, reason),
        ]);
    }
    healthy.restart(OffsetDateTime::now_utc())?;
    let with = paced_phase(bench, &traders, &healthy, "fanout-slow").await?;
    let slow_answered = slow.snapshot().deliveries;
    endpoints.delete_all().await;
    let mut with = fanout_scenario(WITH_SLOW, WITH_SLOW_DESCRIPTION, with, settings.fanout_endpoints)
        .with_figure("slow_endpoint_ms", settings.slow_endpoint_ms as f64)
        .with_figure("slow_deliveries_answered", slow_answered as f64);
    if let (Some(before), Some(after)) = (&without.load, &with.load) {
        let growth = after.p99_ms / before.p99_ms.max(0.001);
        with = with.with_figure("p99_over_without_slow", growth);
    }
    Ok(vec![without, with])
}

/// What one paced phase came to.
struct Phase {
    load: LoadReport,
    rss_kib: u64,
    events: u64,
}

/// Buys at the paced rate for the measured time, then waits for the healthy endpoints'
/// deliveries; their lag and deliveries per second.
async fn paced_phase(bench: &Bench<'_>, traders: &Traders, sink: &WebhookSink, prefix: &str) -> anyhow::Result<Phase> {
    let settings = bench.settings;
    let watch = MemoryWatch::start(bench.service_pid);
    let mut tick = tokio::time::interval(Duration::from_secs(1) / u32::try_from(settings.fanout_events_per_second)?);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let started = Instant::now();
    let mut events = 0_u64;
    let mut failures = 0_u64;
    let mut first_error = None;
    while started.elapsed() < settings.measure {
        tick.tick().await;
        let id = format!("bench-{prefix}-{events}-{failures}");
        match traders.buy(&bench.api, 0, events + failures, &id).await {
            Ok(()) => events += 1,
            Err(error) => {
                failures += 1;
                first_error.get_or_insert(error);
            }
        }
    }
    drain(sink).await;
    let rss_kib = watch.finish();
    let received = sink.snapshot();
    let load = LoadReport {
        ok: received.events,
        errors: failures,
        first_error,
        seconds: received.span_seconds,
        per_second: received.events as f64 / received.span_seconds.max(0.001),
        p50_ms: received.lag_p50_ms,
        p99_ms: received.lag_p99_ms,
        max_ms: received.lag_max_ms,
        cpu: None,
    };
    Ok(Phase { load, rss_kib, events })
}

/// A phase as a scenario.
fn fanout_scenario(name: &str, description: &str, phase: Phase, endpoints: usize) -> Scenario {
    announce(name, &phase.load);
    let expected = phase.events * endpoints as u64;
    Scenario::measured(name, description, phase.load.clone(), phase.rss_kib, None)
        .counting_other_than_requests()
        .with_figure("healthy_endpoints", endpoints as f64)
        .with_figure("events", phase.events as f64)
        .with_figure("healthy_deliveries_expected", expected as f64)
        .with_figure(
            "healthy_deliveries_missing",
            expected.saturating_sub(phase.load.ok) as f64,
        )
}

/// Deliveries with `settings.growth_endpoints` endpoints spread over `operators`, whose
/// players `traders` buy for.
pub async fn many_endpoints(
    bench: &Bench<'_>,
    operators: &[SeededOperator],
    traders: &Result<Traders, String>,
) -> anyhow::Result<Scenario> {
    let traders = match traders {
        Ok(traders) => traders.clone(),
        Err(reason) => return Ok(Scenario::not_available(GROWTH, GROWTH_DESCRIPTION, reason.clone())),
    };
    let count = bench.settings.growth_endpoints;
    let sink = Arc::new(WebhookSink::new(OffsetDateTime::now_utc())?);
    let receiver = LocalServer::start(sink.clone()).await?;
    let mut endpoints = Endpoints::new(bench);
    for index in 0..count {
        let operator = &operators[index % operators.len()];
        let url = format!("{}/endpoint/{index}", receiver.base_url());
        if let Err(reason) = endpoints.add(&operator.full_key, &url, None).await {
            endpoints.delete_all().await;
            return Ok(Scenario::not_available(GROWTH, GROWTH_DESCRIPTION, reason));
        }
    }
    let watch = MemoryWatch::start(bench.service_pid);
    let pools_before = pool_counters(bench).await;
    let mut plan = bench.plan();
    plan.warmup = Duration::ZERO;
    let buys = NewBuy {
        apis: vec![bench.api.clone()],
        traders,
        prefix: "bench-endpoints".into(),
    };
    let bought = crate::load::run(plan, buys).await?;
    let received = sink.snapshot();
    let pools_after = pool_counters(bench).await;
    endpoints.delete_all().await;
    let rss = watch.finish();
    let per_event = count.div_ceil(operators.len()) as f64;
    let load = LoadReport {
        ok: received.events,
        errors: bought.errors,
        first_error: bought.first_error.clone(),
        seconds: bought.seconds,
        per_second: received.events as f64 / bought.seconds,
        p50_ms: received.lag_p50_ms,
        p99_ms: received.lag_p99_ms,
        max_ms: received.lag_max_ms,
        cpu: None,
    };
    announce(GROWTH, &load);
    let mut scenario = Scenario::measured(GROWTH, GROWTH_DESCRIPTION, load, rss, None)
        .counting_other_than_requests()
        .with_figure("endpoints", count as f64)
        .with_figure("operators", operators.len() as f64)
        .with_figure("endpoints_per_event", per_event)
        .with_figure("buys_per_second", bought.per_second)
        .with_figure("deliveries_produced_per_second", bought.per_second * per_event);
    for (pool, (before, after)) in POOLS.iter().zip(pools_before.iter().zip(&pools_after)) {
        if let (Some(before), Some(after)) = (before, after)
            && let Some(wait) = after.mean_wait_ms_since(before)
        {
            scenario = scenario.with_figure(&format!("{pool}_pool_wait_ms_per_checkout"), wait);
        }
    }
    Ok(scenario)
}

/// The service's connection pools, by their metrics label.
const POOLS: [&str; 2] = ["requests", "deliveries"];

/// The counters of each of `POOLS` now, in order, from one scrape of the service's
/// metrics (none when the scrape fails).
async fn pool_counters(bench: &Bench<'_>) -> Vec<Option<PoolCounters>> {
    let exposition = bench.api.metrics_text().await.ok();
    POOLS
        .iter()
        .map(|pool| PoolCounters::parse(exposition.as_deref()?, pool))
        .collect()
}
