//! What one soak run does and for how long: defaults for the full run (30 minutes), the
//! smoke run's (`SOAK_SMOKE=1`, about two minutes), each overridable with a `SOAK_*`
//! environment variable. Everything is printed at start.

use std::time::Duration;

use anyhow::Context;
use opinion_webhook::{MaxAttempts, next_attempt_delay};

/// The knobs of one run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Whether the service is the release build (`SOAK_DEBUG_SERVICE=1` runs the debug
    /// one, the smoke run's default).
    pub release: bool,
    /// How long load runs (`SOAK_DURATION`, e.g. `30m`, `90s`).
    pub duration: Duration,
    /// How often the second instance is killed with SIGKILL and restarted (`SOAK_KILL_EVERY`).
    pub kill_every: Duration,
    /// How long the instance stays down before it is restarted (`SOAK_DOWN_FOR`).
    pub down_for: Duration,
    /// The longest wait for the workers to drain after load stops (`SOAK_DRAIN`). It must
    /// outlast the retry a delivery that failed at the end of the load may be scheduled
    /// for (see [`smoke_drain_secs`]).
    pub drain: Duration,
    /// Players trading (`SOAK_PLAYERS`).
    pub players: usize,
    /// Load workers, each with its own players, one request at a time (`SOAK_WORKERS`).
    pub workers: usize,
    /// Requests per second over all workers, at most (`SOAK_RATE`).
    pub rate: f64,
    /// Open markets traded (`SOAK_MARKETS`).
    pub markets: usize,
    /// The wallet adapter's `timeoutMs` the service is configured with (`SOAK_WALLET_TIMEOUT_MS`).
    pub wallet_timeout_ms: u64,
    /// The wallet's fault rates.
    pub faults: FaultRates,
    /// Webhook receivers, each its own endpoint (`SOAK_RECEIVERS`).
    pub receivers: usize,
    /// One receiver's cycle of a failing then a healthy phase (`SOAK_RECEIVER_PERIOD`).
    pub receiver_period: Duration,
    /// The failing part of that cycle (`SOAK_RECEIVER_FAILING`).
    pub receiver_failing: Duration,
    /// How long after an instance starts its memory is not judged (`SOAK_RSS_WARMUP`).
    pub rss_warmup: Duration,
    /// How far an instance's RSS may grow after warm-up, percent (`SOAK_RSS_TOLERANCE_PERCENT`).
    pub rss_tolerance_percent: u64,
    /// Growth below this many MiB is never a failure, whatever the percentage (`SOAK_RSS_SLACK_MIB`).
    pub rss_slack_mib: u64,
}

/// How often the wallet misbehaves, each a probability per mutation with a new key.
#[derive(Debug, Clone, Copy)]
pub struct FaultRates {
    /// Answers after the service's timeout (applied meanwhile) (`SOAK_FAULT_SLOW`).
    pub slow: f64,
    /// Answers 500, half of them after applying (`SOAK_FAULT_5XX`).
    pub server_error: f64,
    /// Answers 200 with a body that is not JSON, half after applying (`SOAK_FAULT_GARBAGE`).
    pub garbage: f64,
    /// Closes the connection without answering, half after applying (`SOAK_FAULT_DROP`).
    pub drop: f64,
}

impl FaultRates {
    /// All four together.
    pub fn total(&self) -> f64 {
        self.slow + self.server_error + self.garbage + self.drop
    }
}

impl Settings {
    /// The defaults (the smoke run's with `SOAK_SMOKE=1`), then every `SOAK_*` variable.
    pub fn from_env() -> anyhow::Result<Self> {
        let smoke = flag("SOAK_SMOKE")?;
        let pick = |full: u64, tiny: u64| if smoke { tiny } else { full };
        let size = |full: usize, tiny: usize| if smoke { tiny } else { full };
        let settings = Self {
            release: !flag_or("SOAK_DEBUG_SERVICE", smoke)?,
            duration: duration("SOAK_DURATION", pick(30 * 60, 60))?,
            kill_every: duration("SOAK_KILL_EVERY", pick(4 * 60, 25))?,
            down_for: duration("SOAK_DOWN_FOR", pick(10, 3))?,
            drain: duration("SOAK_DRAIN", pick(6 * 60, smoke_drain_secs()))?,
            players: number("SOAK_PLAYERS", size(48, 12))?,
            workers: number("SOAK_WORKERS", size(8, 4))?,
            rate: number("SOAK_RATE", pick(15, 8) as f64)?,
            markets: number("SOAK_MARKETS", size(4, 2))?,
            wallet_timeout_ms: number("SOAK_WALLET_TIMEOUT_MS", 1_000)?,
            faults: FaultRates {
                slow: number("SOAK_FAULT_SLOW", 0.01)?,
                server_error: number("SOAK_FAULT_5XX", 0.01)?,
                garbage: number("SOAK_FAULT_GARBAGE", 0.01)?,
                drop: number("SOAK_FAULT_DROP", 0.01)?,
            },
            receivers: number("SOAK_RECEIVERS", 3)?,
            receiver_period: duration("SOAK_RECEIVER_PERIOD", pick(60, 20))?,
            receiver_failing: duration("SOAK_RECEIVER_FAILING", pick(10, 5))?,
            rss_warmup: duration("SOAK_RSS_WARMUP", pick(120, 20))?,
            rss_tolerance_percent: number("SOAK_RSS_TOLERANCE_PERCENT", 25)?,
            rss_slack_mib: number("SOAK_RSS_SLACK_MIB", 16)?,
        };
        anyhow::ensure!(
            settings.players >= settings.workers,
            "SOAK_PLAYERS must be at least SOAK_WORKERS"
        );
        anyhow::ensure!(settings.workers > 0, "SOAK_WORKERS must be at least 1");
        anyhow::ensure!(settings.rate > 0.0, "SOAK_RATE must be above 0");
        anyhow::ensure!(settings.markets > 0, "SOAK_MARKETS must be at least 1");
        anyhow::ensure!(settings.receivers > 0, "SOAK_RECEIVERS must be at least 1");
        anyhow::ensure!(
            (1_000..=30_000).contains(&settings.wallet_timeout_ms),
            "SOAK_WALLET_TIMEOUT_MS must be between 1000 and 30000 (the adapter's bounds)"
        );
        anyhow::ensure!(
            settings.receiver_failing < settings.receiver_period,
            "SOAK_RECEIVER_FAILING must be shorter than SOAK_RECEIVER_PERIOD"
        );
        let rates = settings.faults;
        anyhow::ensure!(
            [rates.slow, rates.server_error, rates.garbage, rates.drop]
                .iter()
                .all(|rate| (0.0..=1.0).contains(rate))
                && rates.total() <= 1.0,
            "the SOAK_FAULT_* rates must lie between 0 and 1 and add up to at most 1"
        );
        Ok(settings)
    }

    /// The settings as printed at start and in the summary.
    pub fn describe(&self) -> String {
        let f = self.faults;
        format!(
            "{} service; duration {}s, kill the second instance every {}s (down {}s), drain at most {}s\n\
             load: {} players over {} workers, at most {:.0} requests/s, {} markets\n\
             wallet: timeout {} ms; per mutation: slow {:.1}%, 5xx {:.1}%, garbage {:.1}%, dropped connection {:.1}% \
             (each but slow applied first half of the time; slow always applied)\n\
             receivers: {}, each failing {}s of every {}s (500s, one in four after the endpoint's timeout)\n\
             memory: judged after {}s of warm-up, tolerance {}% and at least {} MiB",
            if self.release { "release" } else { "debug" },
            self.duration.as_secs(),
            self.kill_every.as_secs(),
            self.down_for.as_secs(),
            self.drain.as_secs(),
            self.players,
            self.workers,
            self.rate,
            self.markets,
            self.wallet_timeout_ms,
            f.slow * 100.0,
            f.server_error * 100.0,
            f.garbage * 100.0,
            f.drop * 100.0,
            self.receivers,
            self.receiver_failing.as_secs(),
            self.receiver_period.as_secs(),
            self.rss_warmup.as_secs(),
            self.rss_tolerance_percent,
            self.rss_slack_mib,
        )
    }
}

/// `1`/`true` or `0`/`false`; unset is false.
fn flag(name: &str) -> anyhow::Result<bool> {
    flag_or(name, false)
}

/// `1`/`true` or `0`/`false`; unset is `default`.
fn flag_or(name: &str, default: bool) -> anyhow::Result<bool> {
    match std::env::var(name) {
        Ok(text) => match text.trim() {
            "1" | "true" => Ok(true),
            "0" | "false" | "" => Ok(false),
            other => anyhow::bail!("{name}={other}: expected 1 or 0"),
        },
        Err(_) => Ok(default),
    }
}

/// A number, or `default` when unset.
fn number<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    match std::env::var(name) {
        Ok(text) => text.trim().parse().with_context(|| format!("{name}={text}")),
        Err(_) => Ok(default),
    }
}

/// Failures a delivery can reach within the smoke run's minute of load: its first two
/// retries come 5 s and 30 s (±20%) after a failure, the third two minutes later.
const SMOKE_FAILURES: u32 = 3;

/// Time past the retry's wait for the attempt itself and the claim that takes it.
const DRAIN_MARGIN_SECS: u64 = 30;

/// The smoke run's drain: the longest wait the retry schedule sets after a delivery's
/// last possible failure, which may come at the very end of the load, and a margin.
fn smoke_drain_secs() -> u64 {
    next_attempt_delay(SMOKE_FAILURES, MaxAttempts::DEFAULT, u32::MAX)
        .expect("a delivery gets more attempts by default than it can fail in the smoke run")
        + DRAIN_MARGIN_SECS
}

/// A duration written `90`, `90s`, `15m` or `1h`, or `default_secs` when unset.
fn duration(name: &str, default_secs: u64) -> anyhow::Result<Duration> {
    let Ok(text) = std::env::var(name) else {
        return Ok(Duration::from_secs(default_secs));
    };
    parse_duration(&text).with_context(|| format!("{name}={text}: expected e.g. 90s, 15m or 1h"))
}

/// `90`, `90s`, `15m`, `1h`.
fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "s"),
    };
    let value: u64 = digits.parse()?;
    let seconds = match unit {
        "s" => value,
        "m" => value * 60,
        "h" => value * 3600,
        other => anyhow::bail!("unknown unit `{other}`"),
    };
    anyhow::ensure!(seconds > 0, "must be above zero");
    Ok(Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smoke_drain_outlasts_the_wait_after_a_third_failure() {
        // Two minutes, up to 20% longer, then the margin: the 120 s drain it replaces
        // ended 12 s before such an attempt.
        assert_eq!(smoke_drain_secs(), 143 + DRAIN_MARGIN_SECS);
    }

    #[test]
    fn durations_read_seconds_minutes_and_hours() {
        assert_eq!(parse_duration("90").ok(), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("90s").ok(), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("15m").ok(), Some(Duration::from_secs(900)));
        assert_eq!(parse_duration("1h").ok(), Some(Duration::from_secs(3600)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("m").is_err());
    }
}
