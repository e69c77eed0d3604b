//! The load generator: a fixed number of workers issue requests back to back (closed
//! loop), or at a paced rate shared between them (open loop, as far as the workers keep
//! up), for a bounded time and a bounded count, and every successful request's latency
//! goes into an HDR histogram.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;
use tokio::time::Instant;

use crate::cpu::CpuPerRequest;

/// Highest latency the histograms track, in microseconds (a minute).
const MAX_LATENCY_US: u64 = 60_000_000;

/// How long and how hard one scenario runs.
#[derive(Debug, Clone, Copy)]
pub struct LoadPlan {
    /// Workers, each with one request in flight.
    pub concurrency: usize,
    /// Unmeasured time first, to warm connections and caches.
    pub warmup: Duration,
    /// Measured time.
    pub measure: Duration,
    /// No more measured requests than this, however short they are.
    pub max_requests: u64,
    /// When set, the workers together start one request per this interval (missed starts
    /// catch up while a worker is free) instead of each starting its next at once.
    pub pace: Option<Duration>,
}

/// What a measured run came to.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadReport {
    /// Requests that succeeded.
    pub ok: u64,
    /// Requests that failed.
    pub errors: u64,
    /// The first failure, to say why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
    /// Measured wall time in seconds.
    pub seconds: f64,
    /// Successful requests per second.
    pub per_second: f64,
    /// Median latency of successful requests, milliseconds.
    pub p50_ms: f64,
    /// 99th percentile latency, milliseconds.
    pub p99_ms: f64,
    /// Slowest successful request, milliseconds.
    pub max_ms: f64,
    /// CPU per successful request, party by party, when the run was watched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuPerRequest>,
}

impl LoadReport {
    /// One long operation that handled `items` in `seconds` (an export, a finalization):
    /// per second counts items, and every latency is the operation's duration.
    pub fn one_operation(items: u64, seconds: f64) -> Self {
        let total_ms = seconds * 1000.0;
        Self {
            ok: items,
            errors: 0,
            first_error: None,
            seconds,
            per_second: items as f64 / seconds,
            p50_ms: total_ms,
            p99_ms: total_ms,
            max_ms: total_ms,
            cpu: None,
        }
    }
}

/// One request of a scenario; `sequence` is unique across the warm-up and the measured
/// run, so scenarios can derive unique ids (client order ids, user ids) from it.
pub trait Request: Send + Sync + 'static {
    /// The request's future.
    fn call(&self, worker: usize, sequence: u64) -> impl Future<Output = Result<(), String>> + Send;
}

/// Runs the warm-up, then the measured run, and reports the measured part.
pub async fn run<R: Request>(plan: LoadPlan, request: R) -> anyhow::Result<LoadReport> {
    Ok(run_watched(plan, request, || ()).await?.0)
}

/// [`run`], calling `at_measure` as the measured run starts, after the warm-up: what it
/// returns (a reading to compare with one taken at the end) comes back with the report.
pub async fn run_watched<R: Request, W>(
    plan: LoadPlan,
    request: R,
    at_measure: impl FnOnce() -> W,
) -> anyhow::Result<(LoadReport, W)> {
    let request = Arc::new(request);
    let sequence = Arc::new(AtomicU64::new(0));
    if !plan.warmup.is_zero() {
        phase(&plan, plan.warmup, u64::MAX, &request, &sequence).await?;
    }
    let watched = at_measure();
    let start = Instant::now();
    let outcome = phase(&plan, plan.measure, plan.max_requests, &request, &sequence).await?;
    Ok((outcome.report(start.elapsed()), watched))
}

/// What the workers of one phase gathered.
struct PhaseOutcome {
    histogram: Histogram<u64>,
    errors: u64,
    first_error: Option<String>,
}

impl PhaseOutcome {
    fn report(self, elapsed: Duration) -> LoadReport {
        let seconds = elapsed.as_secs_f64();
        let ok = self.histogram.len();
        let ms = |us: u64| us as f64 / 1000.0;
        LoadReport {
            ok,
            errors: self.errors,
            first_error: self.first_error,
            seconds,
            per_second: ok as f64 / seconds,
            p50_ms: ms(self.histogram.value_at_quantile(0.50)),
            p99_ms: ms(self.histogram.value_at_quantile(0.99)),
            max_ms: ms(self.histogram.max()),
            cpu: None,
        }
    }
}

/// Runs every worker until `duration` has passed or `limit` requests were started.
async fn phase<R: Request>(
    plan: &LoadPlan,
    duration: Duration,
    limit: u64,
    request: &Arc<R>,
    sequence: &Arc<AtomicU64>,
) -> anyhow::Result<PhaseOutcome> {
    let deadline = Instant::now() + duration;
    let started = Arc::new(AtomicU64::new(0));
    let pacer = plan
        .pace
        .map(|every| Arc::new(tokio::sync::Mutex::new(tokio::time::interval(every))));
    let mut workers = Vec::with_capacity(plan.concurrency);
    for worker in 0..plan.concurrency {
        let request = request.clone();
        let sequence = sequence.clone();
        let started = started.clone();
        let pacer = pacer.clone();
        workers.push(tokio::spawn(async move {
            let mut histogram = new_histogram()?;
            let mut errors = 0;
            let mut first_error = None;
            loop {
                if let Some(pacer) = &pacer {
                    let turn = tokio::time::timeout_at(deadline, async { pacer.lock().await.tick().await });
                    if turn.await.is_err() {
                        break;
                    }
                }
                if Instant::now() >= deadline || started.fetch_add(1, Ordering::Relaxed) >= limit {
                    break;
                }
                let number = sequence.fetch_add(1, Ordering::Relaxed);
                let begun = Instant::now();
                match request.call(worker, number).await {
                    Ok(()) => histogram.saturating_record(micros(begun.elapsed())),
                    Err(error) => {
                        errors += 1;
                        first_error.get_or_insert(error);
                    }
                }
            }
            anyhow::Ok(PhaseOutcome {
                histogram,
                errors,
                first_error,
            })
        }));
    }
    let mut total = PhaseOutcome {
        histogram: new_histogram()?,
        errors: 0,
        first_error: None,
    };
    for worker in workers {
        let outcome = worker.await??;
        total.histogram.add(&outcome.histogram)?;
        total.errors += outcome.errors;
        if total.first_error.is_none() {
            total.first_error = outcome.first_error;
        }
    }
    Ok(total)
}

/// A histogram of microseconds with three significant figures.
pub fn new_histogram() -> anyhow::Result<Histogram<u64>> {
    Ok(Histogram::new_with_bounds(1, MAX_LATENCY_US, 3)?)
}

/// A duration in whole microseconds, at least one.
pub fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts its calls and answers at once.
    struct Counting(Arc<AtomicU64>);

    impl Request for Counting {
        async fn call(&self, _worker: usize, _sequence: u64) -> Result<(), String> {
            self.0.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
    }

    /// A plan without warm-up, one start every 20 ms across its workers.
    fn paced_every_20_ms(concurrency: usize, measure: Duration, max_requests: u64) -> LoadPlan {
        LoadPlan {
            concurrency,
            warmup: Duration::ZERO,
            measure,
            max_requests,
            pace: Some(Duration::from_millis(20)),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_paced_plan_starts_one_request_per_interval_across_its_workers() {
        let calls = Arc::new(AtomicU64::new(0));
        let plan = paced_every_20_ms(8, Duration::from_secs(2), u64::MAX);
        let report = run(plan, Counting(calls.clone())).await.unwrap();
        // One start at once, then one every 20 ms for two seconds.
        assert_eq!(calls.load(Ordering::Relaxed), 100);
        assert_eq!(report.ok, 100);
        assert!((report.per_second - 50.0).abs() < 0.5, "{}", report.per_second);
    }

    #[tokio::test(start_paused = true)]
    async fn a_paced_plan_stops_at_its_request_limit() {
        let calls = Arc::new(AtomicU64::new(0));
        let plan = paced_every_20_ms(4, Duration::from_secs(10), 7);
        run(plan, Counting(calls.clone())).await.unwrap();
        assert_eq!(calls.load(Ordering::Relaxed), 7);
    }
}
