//! `Metrics`: one instance's registry and its families, rendered in the Prometheus text
//! exposition format. Every name is listed in docs/operations.md with the alerts it
//! serves.

use std::time::Duration;

use opinion_app::operations::{OperationalReadings, PoolReading};
use prometheus::process_collector::ProcessCollector;
use prometheus::{
    CounterVec, Encoder, Gauge, Histogram, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

/// The `Content-Type` of a scrape's answer.
pub const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The route label of a request no route matched: unmatched paths are what a scanner
/// sends, and each would otherwise become a series of its own.
const UNMATCHED_ROUTE: &str = "unmatched";

/// Why the metrics could not be registered or rendered.
#[derive(Debug, thiserror::Error)]
#[error("metrics: {0}")]
pub struct MetricsError(#[from] prometheus::Error);

/// The metrics of one service instance.
pub struct Metrics {
    registry: Registry,
    http_requests: IntCounterVec,
    http_duration: HistogramVec,
    wallet_calls: IntCounterVec,
    wallet_duration: HistogramVec,
    webhook_attempts: IntCounterVec,
    webhook_duration: Histogram,
    webhook_backlog: IntGauge,
    webhook_oldest_age: Gauge,
    manual_reviews: IntGauge,
    open_connections: OpenConnections,
    pool: PoolGauges,
}

/// Which of an instance's listeners a connection came in on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listener {
    /// `OPINION_PORT`, every route.
    Service,
    /// `OPINION_LIVE_FEED_PORT`, the live feed alone.
    LiveFeed,
}

/// `opinion_http_open_connections`, its series of each listener resolved once, so that
/// counting a connection is an increment rather than a lookup by label.
struct OpenConnections {
    service: IntGauge,
    live_feed: IntGauge,
}

impl OpenConnections {
    fn register(registry: &Registry) -> Result<Self, MetricsError> {
        let family = register(
            registry,
            IntGaugeVec::new(
                Opts::new(
                    "opinion_http_open_connections",
                    "Connections open now, by listener (`service`, `live_feed`).",
                ),
                &["listener"],
            )?,
        )?;
        Ok(Self {
            service: family.with_label_values(&["service"]),
            live_feed: family.with_label_values(&["live_feed"]),
        })
    }

    fn of(&self, listener: Listener) -> &IntGauge {
        match listener {
            Listener::Service => &self.service,
            Listener::LiveFeed => &self.live_feed,
        }
    }
}

/// One connection open on a listener, counted in `opinion_http_open_connections` until it
/// is dropped: held by the connection for its life.
#[must_use = "the connection counts as open only while this is held"]
pub struct OpenConnection(IntGauge);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// The label naming the connection pool a series is about (`requests`, `deliveries`).
const POOL_LABEL: &str = "pool";

/// The connection pools' series, one per pool: gauges of its state, and counters that
/// follow the store's own totals.
struct PoolGauges {
    max: IntGaugeVec,
    open: IntGaugeVec,
    idle: IntGaugeVec,
    waiting: IntGaugeVec,
    acquired: IntCounterVec,
    timed_out: IntCounterVec,
    wait_seconds: CounterVec,
}

impl Metrics {
    /// A registry with every family, and the process's own figures (resident memory,
    /// CPU time, open files).
    pub fn new() -> Result<Self, MetricsError> {
        let registry = Registry::new();
        let metrics = Self {
            http_requests: register(
                &registry,
                IntCounterVec::new(
                    Opts::new(
                        "opinion_http_requests_total",
                        "HTTP requests answered, by route, method and status.",
                    ),
                    &["route", "method", "status"],
                )?,
            )?,
            http_duration: register(
                &registry,
                HistogramVec::new(
                    HistogramOpts::new(
                        "opinion_http_request_duration_seconds",
                        "Time to answer an HTTP request, by route and method.",
                    ),
                    &["route", "method"],
                )?,
            )?,
            wallet_calls: register(
                &registry,
                IntCounterVec::new(
                    Opts::new(
                        "opinion_wallet_calls_total",
                        "Calls to operators' wallet adapters, by call and outcome.",
                    ),
                    &["call", "outcome"],
                )?,
            )?,
            wallet_duration: register(
                &registry,
                HistogramVec::new(
                    HistogramOpts::new(
                        "opinion_wallet_call_duration_seconds",
                        "Time a wallet adapter took to answer, by call.",
                    )
                    .buckets(wallet_buckets()),
                    &["call"],
                )?,
            )?,
            webhook_attempts: register(
                &registry,
                IntCounterVec::new(
                    Opts::new(
                        "opinion_webhook_attempts_total",
                        "Webhook delivery attempts, by result.",
                    ),
                    &["result"],
                )?,
            )?,
            webhook_duration: register(
                &registry,
                Histogram::with_opts(
                    HistogramOpts::new(
                        "opinion_webhook_attempt_duration_seconds",
                        "Time a webhook receiver took to answer an attempt.",
                    )
                    .buckets(wallet_buckets()),
                )?,
            )?,
            webhook_backlog: register(
                &registry,
                IntGauge::new(
                    "opinion_webhook_backlog",
                    "Deliveries waiting for their first attempt or a retry, across every operator.",
                )?,
            )?,
            webhook_oldest_age: register(
                &registry,
                Gauge::new(
                    "opinion_webhook_oldest_undelivered_age_seconds",
                    "How long the oldest waiting delivery has waited; 0 when none waits.",
                )?,
            )?,
            manual_reviews: register(
                &registry,
                IntGauge::new(
                    "opinion_manual_reviews_open",
                    "Wallet operations waiting for staff in manual review.",
                )?,
            )?,
            open_connections: OpenConnections::register(&registry)?,
            pool: PoolGauges::register(&registry)?,
            registry,
        };
        metrics.registry.register(Box::new(ProcessCollector::for_self()))?;
        Ok(metrics)
    }

    /// One HTTP request answered. `route` is the matched route's pattern (`None` when no
    /// route matched).
    pub fn http_request(&self, route: Option<&str>, method: &str, status: u16, elapsed: Duration) {
        let route = route.unwrap_or(UNMATCHED_ROUTE);
        self.http_requests
            .with_label_values(&[route, method, &status.to_string()])
            .inc();
        self.http_duration
            .with_label_values(&[route, method])
            .observe(elapsed.as_secs_f64());
    }

    /// A connection accepted on `listener`: counted open until the returned guard is
    /// dropped.
    pub fn connection_opened(&self, listener: Listener) -> OpenConnection {
        let open = self.open_connections.of(listener);
        open.inc();
        OpenConnection(open.clone())
    }

    /// One call to a wallet adapter.
    pub(crate) fn wallet_call(&self, call: &str, outcome: &str, elapsed: Duration) {
        self.wallet_calls.with_label_values(&[call, outcome]).inc();
        self.wallet_duration
            .with_label_values(&[call])
            .observe(elapsed.as_secs_f64());
    }

    /// One webhook delivery attempt.
    pub(crate) fn webhook_attempt(&self, result: &str, elapsed: Duration) {
        self.webhook_attempts.with_label_values(&[result]).inc();
        self.webhook_duration.observe(elapsed.as_secs_f64());
    }

    /// Every series now, with the platform's figures as `readings` gives them.
    pub fn render(&self, readings: &OperationalReadings) -> Result<String, MetricsError> {
        self.webhook_backlog
            .set(i64::try_from(readings.webhook_backlog).unwrap_or(i64::MAX));
        self.webhook_oldest_age
            .set(readings.oldest_undelivered_age.as_seconds_f64());
        self.manual_reviews
            .set(i64::try_from(readings.manual_reviews_open).unwrap_or(i64::MAX));
        for pool in &readings.pools {
            self.pool.follow(pool);
        }
        let mut text = Vec::new();
        TextEncoder::new().encode(&self.registry.gather(), &mut text)?;
        String::from_utf8(text).map_err(|error| MetricsError(prometheus::Error::Msg(error.to_string())))
    }
}

impl PoolGauges {
    fn register(registry: &Registry) -> Result<Self, MetricsError> {
        let gauge = |name: &str, help: &str| -> Result<IntGaugeVec, MetricsError> {
            register(registry, IntGaugeVec::new(Opts::new(name, help), &[POOL_LABEL])?)
        };
        let counter = |name: &str, help: &str| -> Result<IntCounterVec, MetricsError> {
            register(registry, IntCounterVec::new(Opts::new(name, help), &[POOL_LABEL])?)
        };
        Ok(Self {
            max: gauge(
                "opinion_db_pool_max_connections",
                "The most connections the pool opens.",
            )?,
            open: gauge("opinion_db_pool_open_connections", "Connections the pool holds open.")?,
            idle: gauge("opinion_db_pool_idle_connections", "Open connections no request holds.")?,
            waiting: gauge(
                "opinion_db_pool_waiting_requests",
                "Requests waiting for a connection now.",
            )?,
            acquired: counter("opinion_db_pool_acquired_total", "Connections handed out.")?,
            timed_out: counter(
                "opinion_db_pool_timeouts_total",
                "Requests that gave up waiting for a connection.",
            )?,
            wait_seconds: register(
                registry,
                CounterVec::new(
                    Opts::new(
                        "opinion_db_pool_wait_seconds_total",
                        "Time spent waiting for a connection, summed over every request.",
                    ),
                    &[POOL_LABEL],
                )?,
            )?,
        })
    }

    /// Sets the gauges of the pool `reading` is about, and moves each of its counters up
    /// to the store's total (the totals only grow, and only this instance's store feeds
    /// them).
    fn follow(&self, reading: &PoolReading) {
        let (label, pool) = ([reading.role.label()], &reading.figures);
        self.max.with_label_values(&label).set(gauge(pool.max_size));
        self.open.with_label_values(&label).set(gauge(pool.open));
        self.idle.with_label_values(&label).set(gauge(pool.idle));
        self.waiting.with_label_values(&label).set(gauge(pool.waiting));
        let acquired = self.acquired.with_label_values(&label);
        acquired.inc_by(pool.acquired_total.saturating_sub(acquired.get()));
        let timed_out = self.timed_out.with_label_values(&label);
        timed_out.inc_by(pool.timed_out_total.saturating_sub(timed_out.get()));
        let wait_seconds = self.wait_seconds.with_label_values(&label);
        let waited = pool.wait_total.as_secs_f64() - wait_seconds.get();
        if waited > 0.0 {
            wait_seconds.inc_by(waited);
        }
    }
}

/// Registers `collector` and hands it back for recording.
fn register<C: prometheus::core::Collector + Clone + 'static>(
    registry: &Registry,
    collector: C,
) -> Result<C, MetricsError> {
    registry.register(Box::new(collector.clone()))?;
    Ok(collector)
}

/// A count as a gauge's value.
fn gauge(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// Buckets for calls to operators' servers, which may take up to their time limit
/// (seconds, not milliseconds).
fn wallet_buckets() -> Vec<f64> {
    vec![0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0]
}
