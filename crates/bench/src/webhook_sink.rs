//! The bench's webhook receiver: answers 200 to every delivery and records, per event and
//! endpoint (the path it was sent to), the lag from the event's `createdAt` (written in the
//! business transaction) to its arrival here. One receiver can stand for many endpoints,
//! each at its own path; a slow one answers only after a delay.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use hyper::StatusCode;
use serde::Deserialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::load::new_histogram;
use crate::local_http::Responder;

/// The two envelope fields the receiver reads.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EnvelopeHead {
    id: String,
    created_at: String,
}

/// What has arrived so far.
struct Received {
    since: OffsetDateTime,
    lags_us: Histogram<u64>,
    events: HashSet<String>,
    deliveries: u64,
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Received {
    /// Nothing yet, counting events created from `since` on.
    fn nothing_since(since: OffsetDateTime) -> anyhow::Result<Self> {
        Ok(Self {
            since,
            lags_us: new_histogram()?,
            events: HashSet::new(),
            deliveries: 0,
            first: None,
            last: None,
        })
    }
}

/// Counts deliveries and distinct events per endpoint, and their lag; events created
/// before `since` (a backlog from before the endpoint existed) are counted as deliveries
/// only. With a delay, it answers each delivery that much later (a slow endpoint).
pub struct WebhookSink {
    delay: Duration,
    received: Mutex<Received>,
}

/// A snapshot of what arrived.
#[derive(Debug, Clone)]
pub struct SinkSnapshot {
    /// Distinct events (by envelope id and endpoint path).
    pub events: u64,
    /// Deliveries, repeats included.
    pub deliveries: u64,
    /// Seconds from the first to the last arrival.
    pub span_seconds: f64,
    /// Median commit-to-arrival lag, milliseconds.
    pub lag_p50_ms: f64,
    /// 99th percentile lag, milliseconds.
    pub lag_p99_ms: f64,
    /// Largest lag, milliseconds.
    pub lag_max_ms: f64,
}

impl WebhookSink {
    /// An empty receiver counting events created from `since` on.
    pub fn new(since: OffsetDateTime) -> anyhow::Result<Self> {
        Self::slow(since, Duration::ZERO)
    }

    /// A receiver answering each delivery after `delay`.
    pub fn slow(since: OffsetDateTime, delay: Duration) -> anyhow::Result<Self> {
        Ok(Self {
            delay,
            received: Mutex::new(Received::nothing_since(since)?),
        })
    }

    /// Forgets everything received and counts events created from `since` on, for a
    /// second phase over the same endpoints.
    pub fn restart(&self, since: OffsetDateTime) -> anyhow::Result<()> {
        let mut received = self.received.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *received = Received::nothing_since(since)?;
        Ok(())
    }

    /// What arrived so far.
    pub fn snapshot(&self) -> SinkSnapshot {
        let received = self.received.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let span = match (received.first, received.last) {
            (Some(first), Some(last)) => last.duration_since(first).as_secs_f64(),
            _ => 0.0,
        };
        let ms = |us: u64| us as f64 / 1000.0;
        SinkSnapshot {
            events: received.events.len() as u64,
            deliveries: received.deliveries,
            span_seconds: span,
            lag_p50_ms: ms(received.lags_us.value_at_quantile(0.50)),
            lag_p99_ms: ms(received.lags_us.value_at_quantile(0.99)),
            lag_max_ms: ms(received.lags_us.max()),
        }
    }
}

impl Responder for WebhookSink {
    fn delay(&self) -> Duration {
        self.delay
    }

    fn respond(&self, path: &str, body: &[u8]) -> (StatusCode, Vec<u8>) {
        let now = OffsetDateTime::now_utc();
        let arrived = Instant::now();
        let mut received = self.received.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        received.deliveries += 1;
        if let Ok(head) = serde_json::from_slice::<EnvelopeHead>(body)
            && let Ok(created) = OffsetDateTime::parse(&head.created_at, &Rfc3339)
            && created >= received.since
            && received.events.insert(format!("{path} {}", head.id))
        {
            received.first.get_or_insert(arrived);
            received.last = Some(arrived);
            let lag = (now - created).whole_microseconds().max(1);
            received
                .lags_us
                .saturating_record(u64::try_from(lag).unwrap_or(u64::MAX));
        }
        (StatusCode::OK, b"{}".to_vec())
    }
}
