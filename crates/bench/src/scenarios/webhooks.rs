//! Webhooks: with an endpoint subscribed at the bench's receiver, players buy (or, where
//! trading is not available, are launched) for the measured time; the figures are events
//! delivered per second and the lag from each event's business commit (its `createdAt`)
//! to its arrival.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::json;
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

/// The business actions that cause the events: buys (`mini_app.trade.processed`) when
/// trading is available, logins (a launch and its session, `mini_app.login.succeeded`)
/// otherwise.
enum Eventful {
    Buys { api: Api, traders: Traders },
    Logins { api: Api, key: String },
}

impl Request for Eventful {
    async fn call(&self, worker: usize, sequence: u64) -> Result<(), String> {
        match self {
            Self::Buys { api, traders } => traders.buy(api, worker, &format!("bench-webhook-{sequence}")).await,
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
    let body = json!({
        "url": format!("{}/webhooks", receiver.base_url()),
        "eventTypes": [caused_by],
    });
    if let Err(error) = bench
        .api
        .call(Method::POST, "/api/operator/webhooks/endpoints", Some(key), Some(&body))
        .await
    {
        let reason = if error.is_not_implemented() {
            format!("webhook endpoints are not served yet ({error})")
        } else {
            format!("registering the endpoint failed: {error}")
        };
        return Ok(Scenario::not_available(NAME, DESCRIPTION, reason));
    }
    let watch = MemoryWatch::start(bench.service_pid);
    let mut plan = bench.plan();
    plan.warmup = Duration::ZERO;
    let buys = crate::load::run(plan, driver).await?;
    announce(&format!("webhooks (the actions causing {caused_by})"), &buys);
    drain(&sink).await;
    let rss = watch.finish();
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
        Scenario::measured(NAME, &description, load, rss, Some(Baseline::PgbenchReadWrite))
            .with_figure("events_per_action", received.events as f64 / buys.ok.max(1) as f64)
            .with_figure("actions_per_second", buys.per_second)
            .with_figure("deliveries", received.deliveries as f64),
    )
}

/// Waits until nothing new has arrived for a while, or the limit.
async fn drain(sink: &WebhookSink) {
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
