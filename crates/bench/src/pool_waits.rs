//! The service's database pools as its `GET /metrics` reports them, read around a
//! scenario: how long a checkout of each pool waited on average while the scenario ran.
//! A scenario whose pace is set by waiting for connections says so in its figures,
//! instead of looking CPU-bound.

/// One pool's two counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolCounters {
    /// Connections handed out since start-up (`opinion_db_pool_acquired_total`).
    acquired: f64,
    /// Seconds spent waiting for them (`opinion_db_pool_wait_seconds_total`).
    waited_seconds: f64,
}

impl PoolCounters {
    /// The counters of the pool labelled `pool` in a Prometheus text exposition; `None`
    /// when either is missing.
    pub fn parse(exposition: &str, pool: &str) -> Option<Self> {
        Some(Self {
            acquired: sample(exposition, "opinion_db_pool_acquired_total", pool)?,
            waited_seconds: sample(exposition, "opinion_db_pool_wait_seconds_total", pool)?,
        })
    }

    /// The mean wait of the checkouts made since `earlier`, in milliseconds; `None`
    /// when there were none.
    pub fn mean_wait_ms_since(&self, earlier: &Self) -> Option<f64> {
        let checkouts = self.acquired - earlier.acquired;
        (checkouts > 0.0).then(|| (self.waited_seconds - earlier.waited_seconds) * 1000.0 / checkouts)
    }
}

/// The value of the series `name` of the pool labelled `pool`.
fn sample(exposition: &str, name: &str, pool: &str) -> Option<f64> {
    let series = format!("{name}{{pool=\"{pool}\"}} ");
    exposition
        .lines()
        .find_map(|line| line.strip_prefix(&series)?.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXPOSITION: &str = r#"# HELP opinion_db_pool_acquired_total Connections handed out.
# TYPE opinion_db_pool_acquired_total counter
opinion_db_pool_acquired_total{pool="deliveries"} 1200
opinion_db_pool_acquired_total{pool="requests"} 90
opinion_db_pool_acquired_total_other{pool="deliveries"} 7
# TYPE opinion_db_pool_wait_seconds_total counter
opinion_db_pool_wait_seconds_total{pool="deliveries"} 3.5
opinion_db_pool_wait_seconds_total{pool="requests"} 0.25
"#;

    #[test]
    fn the_counters_are_read_from_their_own_pools_series_only() {
        let counters = PoolCounters::parse(EXPOSITION, "deliveries").expect("both series");
        assert_eq!(
            counters,
            PoolCounters {
                acquired: 1200.0,
                waited_seconds: 3.5
            }
        );
        let requests = PoolCounters::parse(EXPOSITION, "requests").expect("both series");
        assert_eq!(requests.acquired, 90.0);
        assert_eq!(PoolCounters::parse(EXPOSITION, "other"), None);
        assert_eq!(
            PoolCounters::parse("opinion_db_pool_acquired_total{pool=\"requests\"} 3\n", "requests"),
            None
        );
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
