//! What one run measures and for how long: fixed defaults sized for a 2-core machine,
//! each overridable with an `OPINION_BENCH_*` environment variable. `OPINION_BENCH_SMOKE`
//! swaps the defaults for tiny ones (CI's smoke run: every scenario once, in seconds).

use std::time::Duration;

use anyhow::Context;
use opinion_access::OperatorCap;

/// The most webhook endpoints one operator may have.
const MOST_ENDPOINTS: usize = OperatorCap::WebhookEndpoints.limit() as usize;

/// The most healthy endpoints the slow-endpoint scenario registers: the operator's cap,
/// less the slow endpoint's place.
const MOST_HEALTHY_ENDPOINTS: usize = MOST_ENDPOINTS - 1;

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
    /// Tiny sizes, the debug build, and no results written: a smoke run, not figures.
    pub smoke: bool,
    /// How long a flight boards in the flight scenarios' service, milliseconds.
    pub flight_boarding_ms: u64,
    /// The pause between two flights there, milliseconds.
    pub flight_pause_ms: u64,
    /// Players cashing out at once on one flight.
    pub flight_cash_outs: usize,
    /// Pages connected to the live flight feed.
    pub flight_pages: usize,
    /// Tickets seeded for the export.
    pub flight_export_tickets: usize,
    /// Tickets of the period finalized (a tenth as many in a second period).
    pub flight_finalize_tickets: usize,
    /// Healthy webhook endpoints of the slow-endpoint scenario (each gets every event);
    /// with the slow one they are all one operator's, so at most one under its cap.
    pub fanout_endpoints: usize,
    /// Events per second the slow-endpoint scenario produces (paced, not closed-loop).
    pub fanout_events_per_second: u64,
    /// How long the slow endpoint takes to answer, milliseconds.
    pub slow_endpoint_ms: u64,
    /// Webhook endpoints of the delivery-at-rate scenario, one operator's, each getting
    /// every event.
    pub webhook_rate_endpoints: usize,
    /// The share of pgbench read-write's tps at which that scenario offers deliveries.
    pub webhook_offered_share: f64,
    /// Webhook endpoints of the delivery growth point, spread over the operators.
    pub growth_endpoints: usize,
    /// Whether to seed up to `growth_trades_per_operator` trades and measure the reads
    /// again (the 10M point of the reads curve; minutes of seeding at full size).
    pub growth: bool,
    /// Trades per operator at the reads curve's second point.
    pub growth_trades_per_operator: usize,
    /// The scenario groups to run (`OPINION_BENCH_ONLY`, comma-separated); `None` runs
    /// them all. A run of some groups writes no results: its report is partial.
    pub only: Option<Vec<Group>>,
}

/// The scenario groups a run can be limited to, named as `OPINION_BENCH_ONLY` takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// `reads`: the trades pages and their pgbench baselines.
    Reads,
    /// `launch`.
    Launch,
    /// `trading`: buy and replay.
    Trading,
    /// `webhooks`: one endpoint under buys, and several at a paced rate.
    Webhooks,
    /// `scaling`: two instances, and buys over 10 and 100 operators.
    Scaling,
    /// `fanout`: the slow endpoint among healthy ones, and 1,000 endpoints.
    Fanout,
    /// `flight`: every flight scenario.
    Flight,
}

impl Group {
    const ALL: [(&'static str, Self); 7] = [
        ("reads", Self::Reads),
        ("launch", Self::Launch),
        ("trading", Self::Trading),
        ("webhooks", Self::Webhooks),
        ("scaling", Self::Scaling),
        ("fanout", Self::Fanout),
        ("flight", Self::Flight),
    ];

    /// The groups a comma-separated list names.
    fn parse_list(text: &str) -> anyhow::Result<Vec<Self>> {
        text.split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(|name| {
                Self::ALL
                    .iter()
                    .find(|(known, _)| *known == name)
                    .map(|(_, group)| *group)
                    .with_context(|| {
                        let known: Vec<&str> = Self::ALL.iter().map(|(known, _)| *known).collect();
                        format!("OPINION_BENCH_ONLY names `{name}`; the groups are {}", known.join(", "))
                    })
            })
            .collect()
    }
}

impl Settings {
    /// The defaults (the smoke run's with `OPINION_BENCH_SMOKE=true`), then
    /// `OPINION_BENCH_CONCURRENCY`, `_SECONDS`, `_WARMUP_SECONDS`, `_MAX_REQUESTS`,
    /// `_OPERATORS`, `_TRADES_PER_OPERATOR`, `_DEEP_PAGE`, `_STATEMENTS` (`true` to profile
    /// a buy's statements), `_FLIGHT_BOARDING_MS`, `_FLIGHT_PAUSE_MS`, `_FLIGHT_CASH_OUTS`,
    /// `_FLIGHT_PAGES`, `_FLIGHT_EXPORT_TICKETS`, `_FLIGHT_FINALIZE_TICKETS`,
    /// `_FANOUT_ENDPOINTS`, `_FANOUT_EVENTS_PER_SECOND`, `_SLOW_ENDPOINT_MS`,
    /// `_WEBHOOK_RATE_ENDPOINTS`, `_WEBHOOK_OFFERED_SHARE`,
    /// `_GROWTH_ENDPOINTS`, `_GROWTH` (`true` for the 10M reads point) and
    /// `_GROWTH_TRADES_PER_OPERATOR`, and `_ONLY` (some scenario groups, see [`Group`]).
    pub fn from_env() -> anyhow::Result<Self> {
        let smoke = read("SMOKE", false)?;
        let size = |full: usize, tiny: usize| if smoke { tiny } else { full };
        let settings = Self {
            concurrency: read("CONCURRENCY", size(16, 4))?,
            measure: Duration::from_secs(read("SECONDS", size(12, 1) as u64)?),
            warmup: Duration::from_secs(read("WARMUP_SECONDS", size(2, 0) as u64)?),
            max_requests: read("MAX_REQUESTS", 2_000_000)?,
            operators: read("OPERATORS", size(100, 2))?,
            trades_per_operator: read("TRADES_PER_OPERATOR", size(10_000, 200))?,
            deep_page: read("DEEP_PAGE", size(180, 2))?,
            statements: read("STATEMENTS", false)?,
            smoke,
            flight_boarding_ms: read("FLIGHT_BOARDING_MS", size(10_000, 3_000) as u64)?,
            flight_pause_ms: read("FLIGHT_PAUSE_MS", size(1_000, 200) as u64)?,
            flight_cash_outs: read("FLIGHT_CASH_OUTS", size(1_000, 20))?,
            flight_pages: read("FLIGHT_PAGES", size(5_000, 20))?,
            flight_export_tickets: read("FLIGHT_EXPORT_TICKETS", size(1_000_000, 2_000))?,
            flight_finalize_tickets: read("FLIGHT_FINALIZE_TICKETS", size(1_000_000, 2_000))?,
            fanout_endpoints: read("FANOUT_ENDPOINTS", size(MOST_HEALTHY_ENDPOINTS, 4))?,
            fanout_events_per_second: read("FANOUT_EVENTS_PER_SECOND", 2)?,
            slow_endpoint_ms: read("SLOW_ENDPOINT_MS", 5_000)?,
            webhook_rate_endpoints: read("WEBHOOK_RATE_ENDPOINTS", size(50, 2))?,
            webhook_offered_share: read("WEBHOOK_OFFERED_SHARE", 0.5)?,
            growth_endpoints: read("GROWTH_ENDPOINTS", size(1_000, 20))?,
            growth: read("GROWTH", smoke)?,
            growth_trades_per_operator: read("GROWTH_TRADES_PER_OPERATOR", size(100_000, 2_000))?,
            only: std::env::var("OPINION_BENCH_ONLY")
                .ok()
                .map(|text| Group::parse_list(&text))
                .transpose()?,
        };
        anyhow::ensure!(
            settings.fanout_endpoints <= MOST_HEALTHY_ENDPOINTS,
            "OPINION_BENCH_FANOUT_ENDPOINTS must be at most {MOST_HEALTHY_ENDPOINTS}: with the slow endpoint they are one \
             operator's, whose cap is {} webhook endpoints",
            OperatorCap::WebhookEndpoints.limit()
        );
        anyhow::ensure!(
            settings.fanout_endpoints > 0 && settings.growth_endpoints > 0,
            "OPINION_BENCH_FANOUT_ENDPOINTS and OPINION_BENCH_GROWTH_ENDPOINTS must be at least 1"
        );
        anyhow::ensure!(
            (1..=MOST_ENDPOINTS).contains(&settings.webhook_rate_endpoints),
            "OPINION_BENCH_WEBHOOK_RATE_ENDPOINTS must be from 1 to {MOST_ENDPOINTS}: they are one operator's"
        );
        anyhow::ensure!(
            settings.webhook_offered_share > 0.0 && settings.webhook_offered_share.is_finite(),
            "OPINION_BENCH_WEBHOOK_OFFERED_SHARE must be a positive number"
        );
        anyhow::ensure!(
            settings.fanout_events_per_second > 0,
            "OPINION_BENCH_FANOUT_EVENTS_PER_SECOND must be at least 1"
        );
        anyhow::ensure!(
            !settings.growth || settings.growth_trades_per_operator > settings.trades_per_operator,
            "OPINION_BENCH_GROWTH_TRADES_PER_OPERATOR must exceed OPINION_BENCH_TRADES_PER_OPERATOR"
        );
        anyhow::ensure!(
            settings.flight_cash_outs > 0,
            "OPINION_BENCH_FLIGHT_CASH_OUTS must be at least 1"
        );
        anyhow::ensure!(
            settings.flight_pages > 0,
            "OPINION_BENCH_FLIGHT_PAGES must be at least 1"
        );
        anyhow::ensure!(
            settings.flight_export_tickets >= 10,
            "OPINION_BENCH_FLIGHT_EXPORT_TICKETS must be at least 10"
        );
        anyhow::ensure!(
            settings.flight_finalize_tickets >= 10,
            "OPINION_BENCH_FLIGHT_FINALIZE_TICKETS must be at least 10"
        );
        anyhow::ensure!(settings.concurrency > 0, "OPINION_BENCH_CONCURRENCY must be at least 1");
        anyhow::ensure!(settings.operators > 0, "OPINION_BENCH_OPERATORS must be at least 1");
        anyhow::ensure!(
            settings.deep_page * 50 < settings.trades_per_operator,
            "OPINION_BENCH_DEEP_PAGE must lie inside one operator's trades (50 per page)"
        );
        Ok(settings)
    }

    /// Whether the run measures `group`.
    pub fn runs(&self, group: Group) -> bool {
        self.only.as_ref().is_none_or(|only| only.contains(&group))
    }

    /// Whether every group runs, so the report is whole and may be written.
    pub fn runs_all(&self) -> bool {
        self.only.is_none()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_groups_is_read_in_any_order_with_spaces() {
        assert_eq!(
            Group::parse_list("webhooks, trading,").unwrap(),
            [Group::Webhooks, Group::Trading]
        );
    }

    #[test]
    fn an_unknown_group_is_refused_with_the_known_ones() {
        let error = Group::parse_list("trading,webhook").unwrap_err().to_string();
        assert!(error.contains("`webhook`"), "{error}");
        assert!(
            error.contains("reads, launch, trading, webhooks, scaling, fanout, flight"),
            "{error}"
        );
    }
}
