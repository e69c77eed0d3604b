//! What one run measures and for how long: fixed defaults sized for a 2-core machine,
//! each overridable with an `OPINION_BENCH_*` environment variable.

use std::time::Duration;

use anyhow::Context;

/// The knobs of one run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Requests in flight at once in every HTTP scenario, and pgbench's client count.
    pub concurrency: usize,
    /// How long each scenario is measured.
    pub measure: Duration,
    /// How long each scenario runs, unmeasured, before that.
    pub warmup: Duration,
    /// Upper bound on the requests of one measured scenario, whatever its duration.
    pub max_requests: u64,
    /// Operators seeded with trades.
    pub operators: usize,
    /// Trades seeded per operator.
    pub trades_per_operator: usize,
    /// How many pages deep the "deep page" of the read scenario is.
    pub deep_page: usize,
    /// Whether to load `pg_stat_statements` and report where a buy's database time goes.
    pub statements: bool,
}

impl Settings {
    /// The defaults, then `OPINION_BENCH_CONCURRENCY`, `_SECONDS`, `_WARMUP_SECONDS`,
    /// `_MAX_REQUESTS`, `_OPERATORS`, `_TRADES_PER_OPERATOR`, `_DEEP_PAGE`, `_STATEMENTS`
    /// (`true` to profile a buy's statements).
    pub fn from_env() -> anyhow::Result<Self> {
        let settings = Self {
            concurrency: read("CONCURRENCY", 16)?,
            measure: Duration::from_secs(read("SECONDS", 12)?),
            warmup: Duration::from_secs(read("WARMUP_SECONDS", 2)?),
            max_requests: read("MAX_REQUESTS", 2_000_000)?,
            operators: read("OPERATORS", 100)?,
            trades_per_operator: read("TRADES_PER_OPERATOR", 10_000)?,
            deep_page: read("DEEP_PAGE", 180)?,
            statements: read("STATEMENTS", false)?,
        };
        anyhow::ensure!(settings.concurrency > 0, "OPINION_BENCH_CONCURRENCY must be at least 1");
        anyhow::ensure!(settings.operators > 0, "OPINION_BENCH_OPERATORS must be at least 1");
        anyhow::ensure!(
            settings.deep_page * 50 < settings.trades_per_operator,
            "OPINION_BENCH_DEEP_PAGE must lie inside one operator's trades (50 per page)"
        );
        Ok(settings)
    }

    /// Trades seeded in all.
    pub fn seeded_trades(&self) -> usize {
        self.operators * self.trades_per_operator
    }
}

/// `OPINION_BENCH_<name>` parsed, or `default` when unset.
fn read<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let variable = format!("OPINION_BENCH_{name}");
    match std::env::var(&variable) {
        Ok(text) => text.trim().parse().with_context(|| format!("{variable}={text}")),
        Err(_) => Ok(default),
    }
}
