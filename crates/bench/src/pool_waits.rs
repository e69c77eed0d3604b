//! The service's database pool as its `GET /metrics` reports it, read around a scenario:
//! how long a checkout waited on average while the scenario ran. A scenario whose pace
//! is set by waiting for connections (webhook delivery behind the buys' requests, in the
//! one pool) says so in its figures, instead of looking CPU-bound.

use crate::api::Api;

/// The pool's two counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolCounters {
    /// Connections handed out since start-up (`opinion_db_pool_acquired_total`).
    acquired: f64,
    /// Seconds spent waiting for them (`opinion_db_pool_wait_seconds_total`).
    waited_seconds: f64,
}

impl PoolCounters {
    /// The counters in a Prometheus text exposition; `None` when either is missing.
    pub fn parse(exposition: &str) -> Option<Self> {
        Some(Self {
            acquired: sample(exposition, "opinion_db_pool_acquired_total")?,
            waited_seconds: sample(exposition, "opinion_db_pool_wait_seconds_total")?,
        })
    }

    /// The counters the service reports now; `None` when its metrics cannot be read.
    pub async fn read(api: &Api) -> Option<Self> {
        Self::parse(&api.metrics_text().await.ok()?)
    }

    /// The mean wait of the checkouts made since `earlier`, in milliseconds; `None`
    /// when there were none.
    pub fn mean_wait_ms_since(&self, earlier: &Self) -> Option<f64> {
        let checkouts = self.acquired - earlier.acquired;
        (checkouts > 0.0).then(|| (self.waited_seconds - earlier.waited_seconds) * 1000.0 / checkouts)
    }
}

/// The value of the unlabelled series `name`.
fn sample(exposition: &str, name: &str) -> Option<f64> {
    exposition.lines().find_map(|line| {
        let value = line.strip_prefix(name)?.strip_prefix(' ')?;
        value.trim().parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXPOSITION: &str = "\
# HELP opinion_db_pool_acquired_total Connections handed out.
# TYPE opinion_db_pool_acquired_total counter
opinion_db_pool_acquired_total 1200
opinion_db_pool_acquired_total_other 7
# TYPE opinion_db_pool_wait_seconds_total counter
opinion_db_pool_wait_seconds_total 3.5
";

    #[test]
    fn the_counters_are_read_from_their_own_series_only() {
        let counters = PoolCounters::parse(EXPOSITION).expect("both series");
        assert_eq!(
            counters,
            PoolCounters {
                acquired: 1200.0,
                waited_seconds: 3.5
            }
        );
        assert_eq!(PoolCounters::parse("opinion_db_pool_acquired_total 3\n"), None);
    }

    #[test]
    fn the_mean_wait_is_of_the_checkouts_in_between() {
        let before = PoolCounters {
            acquired: 1000.0,
            waited_seconds: 1.0,
        };
        let after = PoolCounters {
            acquired: 1400.0,
            waited_seconds: 3.0,
        };
        assert_eq!(after.mean_wait_ms_since(&before), Some(5.0));
        assert_eq!(before.mean_wait_ms_since(&before), None);
    }
}
