//! Configuration: defaults, then an optional TOML file, then `OPINION_*` environment
//! variables (and `DATABASE_URL`), validated once at start-up with one message per problem.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use opinion_access::LoginThrottle;
use opinion_api::{MetricsAccess, OperatorRateLimit, TrustedProxies};
use opinion_exchange_http::ExchangeSettings;
use opinion_flight::{ChainLength, FlightTiming};
use opinion_launch::{LAUNCH_TOKEN_TTL_DEFAULT_SECS, LAUNCH_TOKEN_TTL_MAX_SECS, LAUNCH_TOKEN_TTL_MIN_SECS};
use opinion_statement::StatementKey;
use opinion_store_pg::{DEFAULT_ACQUIRE_TIMEOUT, SessionLimits};
use serde::{Deserialize, Serialize};

/// Where the service runs; decides defaults and what is required.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// `cargo run`: private database, demo operator, simulator on.
    Development,
    /// Operators' integration environment: simulator on.
    Staging,
    /// Live: simulator off, secrets required.
    Production,
}

/// The service's settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `OPINION_ENV`.
    pub env: Environment,
    /// Address to listen on (`OPINION_HOST`).
    pub host: String,
    /// Port to listen on; 0 picks a free one (`OPINION_PORT`).
    pub port: u16,
    /// The live feed's own port (`OPINION_LIVE_FEED_PORT`), on `host`; 0 picks a free
    /// one. A load balancer routes `GET /api/player/flight/live` to it, where a page
    /// costs far less memory than on `port`, which serves the feed too. Absent: no
    /// listener of its own.
    pub live_feed_port: Option<u16>,
    /// PostgreSQL URL (`DATABASE_URL`); in development, absent means a private cluster.
    pub database_url: Option<String>,
    /// Pool size per instance (`OPINION_DATABASE_MAX_CONNECTIONS`).
    pub database_max_connections: usize,
    /// PEM bundle of the CA certificates the database's certificate is checked against
    /// (`OPINION_DATABASE_CA_FILE`); `sslrootcert` in `DATABASE_URL` overrides it. Without
    /// either, `verify-ca` and `verify-full` trust the built-in Mozilla roots.
    pub database_ca_file: Option<PathBuf>,
    /// `statement_timeout` of every database session, in milliseconds
    /// (`OPINION_DATABASE_STATEMENT_TIMEOUT_MS`); admin commands and migrations run
    /// without it.
    pub database_statement_timeout_ms: u32,
    /// `lock_timeout` of every database session, in milliseconds
    /// (`OPINION_DATABASE_LOCK_TIMEOUT_MS`).
    pub database_lock_timeout_ms: u32,
    /// `idle_in_transaction_session_timeout` of every database session, in milliseconds
    /// (`OPINION_DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`).
    pub database_idle_in_transaction_timeout_ms: u32,
    /// The longest a request waits for a pooled connection, in milliseconds
    /// (`OPINION_DATABASE_ACQUIRE_TIMEOUT_MS`).
    pub database_acquire_timeout_ms: u32,
    /// Where development data lives: the private cluster, the session secret, demo credentials.
    pub data_dir: PathBuf,
    /// Secret that signs staff session tokens, at least 32 bytes (`OPINION_SESSION_SECRET`).
    /// Development keeps a generated one in the data directory.
    pub session_secret: Option<String>,
    /// Key material, at least 32 bytes, that seals operators' signing secrets at rest
    /// (`OPINION_DATA_KEY`). Development keeps a generated one in the data directory.
    pub data_key: Option<String>,
    /// The data key being replaced, during a data key rotation only
    /// (`OPINION_DATA_KEY_PREVIOUS`): it still opens what it sealed, never seals, and is
    /// removed once `opinion admin data-key rotate` has re-sealed everything.
    pub data_key_previous: Option<String>,
    /// The platform's statement signing key, the 32-byte Ed25519 seed as 64 hex digits
    /// (`OPINION_STATEMENT_SIGNING_KEY`). Development keeps a generated one in the data
    /// directory; staging and production refuse to start without it.
    pub statement_signing_key: Option<String>,
    /// Staff session lifetime in minutes (`OPINION_SESSION_TTL_MINUTES`).
    pub session_ttl_minutes: u32,
    /// Password attempts one e-mail address gets per login window
    /// (`OPINION_LOGIN_EMAIL_ATTEMPTS`).
    pub login_email_attempts: u32,
    /// Password attempts one client address gets per login window, across e-mail
    /// addresses (`OPINION_LOGIN_ADDRESS_ATTEMPTS`).
    pub login_address_attempts: u32,
    /// The login counting window in seconds (`OPINION_LOGIN_WINDOW_SECONDS`).
    pub login_window_seconds: u32,
    /// The first login lock in seconds, doubled by each further one
    /// (`OPINION_LOGIN_LOCK_SECONDS`).
    pub login_lock_seconds: u32,
    /// The longest login lock in seconds (`OPINION_LOGIN_MAX_LOCK_SECONDS`).
    pub login_max_lock_seconds: u32,
    /// How long a launch token can be exchanged for a player session, in seconds
    /// (`OPINION_LAUNCH_TOKEN_TTL_SECONDS`); bounds and default in `opinion-launch`.
    pub launch_token_ttl_seconds: u32,
    /// `text` or `json` log lines (`OPINION_LOG_FORMAT`).
    pub log_format: LogFormat,
    /// Webhook delivery workers per instance; 0 runs none (`OPINION_WEBHOOK_WORKERS`).
    pub webhook_workers: usize,
    /// Size of the delivery workers' own connection pool per instance, beside the
    /// requests' (`OPINION_WEBHOOK_DATABASE_CONNECTIONS`).
    pub webhook_database_connections: usize,
    /// How long an idle delivery worker waits before looking again, in milliseconds
    /// (`OPINION_WEBHOOK_POLL_INTERVAL_MS`).
    pub webhook_poll_interval_ms: u64,
    /// How often the wallet worker sends due redemptions and compensations and recovers
    /// lost answers, in milliseconds (`OPINION_WALLET_WORKER_INTERVAL_MS`); 0 runs none.
    pub wallet_worker_interval_ms: u64,
    /// How often expired player sessions are ended with `mini_app.session.expired`, in
    /// milliseconds (`OPINION_SESSION_SWEEP_INTERVAL_MS`); 0 runs no sweep.
    pub session_sweep_interval_ms: u64,
    /// Whether this instance plays flights (may become the flight driver) and runs the
    /// flight money worker (`OPINION_FLIGHT_DRIVER`); every instance serves players.
    pub flight_driver: bool,
    /// How long a flight boards, in milliseconds (`OPINION_FLIGHT_BOARDING_MS`).
    pub flight_boarding_ms: u64,
    /// The pause between a crash and the next boarding, in milliseconds
    /// (`OPINION_FLIGHT_PAUSE_MS`).
    pub flight_pause_ms: u64,
    /// How many flights a new seed chain plays (`OPINION_FLIGHT_CHAIN_LENGTH`).
    pub flight_chain_length: u32,
    /// The driver's and the live feed's tick, in milliseconds (`OPINION_FLIGHT_TICK_MS`):
    /// auto cash-outs are stored at most this late, pages see a phase change at most this
    /// late.
    pub flight_tick_ms: u64,
    /// The service's public base URL, which launch URLs and signed links start with
    /// (`OPINION_PUBLIC_URL`); by default `http://{host}:{port}`.
    pub public_url: Option<String>,
    /// Comma-separated addresses or networks of the reverse proxies in front of the
    /// service, whose `X-Forwarded-For` names the client (`OPINION_TRUSTED_PROXIES`);
    /// empty (the default) believes no forwarded header and records the peer address.
    pub trusted_proxies: String,
    /// Requests per minute each operator may make to the operator API on one instance,
    /// all its keys and staff sessions together (`OPINION_OPERATOR_RATE_LIMIT_PER_MINUTE`).
    pub operator_rate_limit_per_minute: u32,
    /// The bearer token a scraper sends to `GET /metrics` (`OPINION_METRICS_TOKEN`, at
    /// least 32 characters). Without one, development and staging serve the metrics to
    /// anyone who reaches the service and production does not serve them.
    pub metrics_token: Option<String>,
    /// The exchange ticker statements take their comparison-only rate from: a preset
    /// (`OPINION_EXCHANGE_PRESET`: `indodax` or `tokocrypto`), or a custom ticker
    /// (`OPINION_EXCHANGE_URL`, `OPINION_EXCHANGE_PAIR`, `OPINION_EXCHANGE_PRICE_POINTER`,
    /// all three). None by default, in every environment.
    pub exchange_preset: Option<String>,
    /// See `exchange_preset`.
    pub exchange_url: Option<String>,
    /// See `exchange_preset`.
    pub exchange_pair: Option<String>,
    /// See `exchange_preset`.
    pub exchange_price_pointer: Option<String>,
    /// The exchange call's time limit in milliseconds (`OPINION_EXCHANGE_TIMEOUT_MS`).
    pub exchange_timeout_ms: Option<u64>,
    /// The largest exchange answer read, in bytes (`OPINION_EXCHANGE_MAX_ANSWER_BYTES`).
    pub exchange_max_answer_bytes: Option<usize>,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable.
    Text,
    /// One JSON object per line, for log pipelines.
    Json,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            env: Environment::Development,
            host: "127.0.0.1".into(),
            port: 8080,
            live_feed_port: None,
            database_url: None,
            database_max_connections: 16,
            database_ca_file: None,
            database_statement_timeout_ms: millis(SessionLimits::DEFAULT.statement),
            database_lock_timeout_ms: millis(SessionLimits::DEFAULT.lock),
            database_idle_in_transaction_timeout_ms: millis(SessionLimits::DEFAULT.idle_in_transaction),
            database_acquire_timeout_ms: millis(DEFAULT_ACQUIRE_TIMEOUT),
            data_dir: PathBuf::from(".data"),
            session_secret: None,
            data_key: None,
            data_key_previous: None,
            statement_signing_key: None,
            session_ttl_minutes: 8 * 60,
            login_email_attempts: LoginThrottle::default().email_attempts,
            login_address_attempts: LoginThrottle::default().address_attempts,
            login_window_seconds: 15 * 60,
            login_lock_seconds: 60,
            login_max_lock_seconds: 15 * 60,
            launch_token_ttl_seconds: LAUNCH_TOKEN_TTL_DEFAULT_SECS,
            log_format: LogFormat::Text,
            webhook_workers: 16,
            webhook_database_connections: 16,
            webhook_poll_interval_ms: 1_000,
            wallet_worker_interval_ms: 1_000,
            session_sweep_interval_ms: 10_000,
            flight_driver: true,
            flight_boarding_ms: 5_000,
            flight_pause_ms: 3_000,
            flight_chain_length: 10_000,
            flight_tick_ms: 100,
            public_url: None,
            trusted_proxies: String::new(),
            operator_rate_limit_per_minute: 6_000,
            metrics_token: None,
            exchange_preset: None,
            exchange_url: None,
            exchange_pair: None,
            exchange_price_pointer: None,
            exchange_timeout_ms: None,
            exchange_max_answer_bytes: None,
        }
    }
}

/// A default duration as the configuration writes it, in milliseconds.
fn millis(duration: Duration) -> u32 {
    u32::try_from(duration.as_millis()).unwrap_or(u32::MAX)
}

/// Why the configuration cannot be used; each line says what to fix.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration:\n  - {}", .0.join("\n  - "))]
pub struct ConfigError(pub Vec<String>);

impl Config {
    /// Loads defaults, then `file` (or `opinion.toml` when present), then the environment.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        match file {
            Some(path) if !path.exists() => {
                return Err(ConfigError(vec![format!(
                    "the configuration file {} does not exist",
                    path.display()
                )]));
            }
            Some(path) => figment = figment.merge(Toml::file(path)),
            None => figment = figment.merge(Toml::file("opinion.toml")),
        }
        let config: Config = figment
            .merge(Env::prefixed("OPINION_").ignore(&["config", "pg_bin"]))
            .merge(Env::raw().only(&["database_url"]))
            .extract()
            .map_err(|e| ConfigError(e.into_iter().map(|e| e.to_string()).collect()))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks what no type can: required secrets and sane bounds.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut problems = Vec::new();
        if self.env != Environment::Development && self.database_url.is_none() {
            problems.push(format!(
                "{:?} needs DATABASE_URL: only development starts a private database",
                self.env
            ));
        }
        match &self.session_secret {
            Some(secret) if secret.len() < 32 => {
                problems.push("OPINION_SESSION_SECRET must have at least 32 bytes".into());
            }
            None if self.env != Environment::Development => {
                problems.push(format!(
                    "{:?} needs OPINION_SESSION_SECRET (at least 32 random bytes)",
                    self.env
                ));
            }
            _ => {}
        }
        match &self.data_key {
            Some(key) if key.len() < 32 => {
                problems.push("OPINION_DATA_KEY must have at least 32 bytes".into());
            }
            None if self.env != Environment::Development => {
                problems.push(format!(
                    "{:?} needs OPINION_DATA_KEY (at least 32 random bytes; it seals signing secrets at rest)",
                    self.env
                ));
            }
            _ => {}
        }
        match &self.data_key_previous {
            Some(key) if key.len() < 32 => {
                problems.push("OPINION_DATA_KEY_PREVIOUS must have at least 32 bytes".into());
            }
            Some(key) if self.data_key.as_ref() == Some(key) => {
                problems.push("OPINION_DATA_KEY_PREVIOUS must be the key being replaced, not OPINION_DATA_KEY".into());
            }
            _ => {}
        }
        match &self.statement_signing_key {
            Some(key) if StatementKey::from_hex(key).is_err() => {
                problems.push("OPINION_STATEMENT_SIGNING_KEY must be 64 hex digits (a 32-byte Ed25519 seed)".into());
            }
            None if self.env != Environment::Development => {
                problems.push(format!(
                    "{:?} needs OPINION_STATEMENT_SIGNING_KEY (64 hex digits of a random 32-byte seed; it signs settlement statements)",
                    self.env
                ));
            }
            _ => {}
        }
        if !(5..=24 * 60).contains(&self.session_ttl_minutes) {
            problems.push("OPINION_SESSION_TTL_MINUTES must be between 5 and 1440".into());
        }
        if let Err(problem) = self.login_throttle().validate() {
            problems.push(format!("OPINION_LOGIN_*: {problem}"));
        }
        if !(LAUNCH_TOKEN_TTL_MIN_SECS..=LAUNCH_TOKEN_TTL_MAX_SECS).contains(&self.launch_token_ttl_seconds) {
            problems.push(format!(
                "OPINION_LAUNCH_TOKEN_TTL_SECONDS must be between {LAUNCH_TOKEN_TTL_MIN_SECS} and {LAUNCH_TOKEN_TTL_MAX_SECS}"
            ));
        }
        if !(1..=1000).contains(&self.database_max_connections) {
            problems.push("OPINION_DATABASE_MAX_CONNECTIONS must be between 1 and 1000".into());
        }
        let limits = [
            (
                "OPINION_DATABASE_STATEMENT_TIMEOUT_MS",
                self.database_statement_timeout_ms,
                1_000..=3_600_000,
            ),
            (
                "OPINION_DATABASE_LOCK_TIMEOUT_MS",
                self.database_lock_timeout_ms,
                100..=600_000,
            ),
            (
                "OPINION_DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS",
                self.database_idle_in_transaction_timeout_ms,
                1_000..=3_600_000,
            ),
            (
                "OPINION_DATABASE_ACQUIRE_TIMEOUT_MS",
                self.database_acquire_timeout_ms,
                100..=60_000,
            ),
        ];
        for (name, value, bounds) in limits {
            if !bounds.contains(&value) {
                problems.push(format!(
                    "{name} must be between {} and {}",
                    bounds.start(),
                    bounds.end()
                ));
            }
        }
        if let Some(path) = &self.database_ca_file
            && !path.is_file()
        {
            problems.push(format!(
                "OPINION_DATABASE_CA_FILE: {} is not a readable file",
                path.display()
            ));
        }
        if self.webhook_workers > 64 {
            problems.push("OPINION_WEBHOOK_WORKERS must be between 0 and 64".into());
        }
        if !(1..=1000).contains(&self.webhook_database_connections) {
            problems.push("OPINION_WEBHOOK_DATABASE_CONNECTIONS must be between 1 and 1000".into());
        }
        if !(10..=60_000).contains(&self.webhook_poll_interval_ms) {
            problems.push("OPINION_WEBHOOK_POLL_INTERVAL_MS must be between 10 and 60000".into());
        }
        if self.wallet_worker_interval_ms != 0 && !(10..=60_000).contains(&self.wallet_worker_interval_ms) {
            problems.push("OPINION_WALLET_WORKER_INTERVAL_MS must be 0 (no worker) or between 10 and 60000".into());
        }
        if self.session_sweep_interval_ms != 0 && !(10..=60_000).contains(&self.session_sweep_interval_ms) {
            problems.push("OPINION_SESSION_SWEEP_INTERVAL_MS must be 0 (no sweep) or between 10 and 60000".into());
        }
        if let Err(problem) = FlightTiming::new(self.flight_boarding_ms, self.flight_pause_ms) {
            problems.push(format!(
                "OPINION_FLIGHT_BOARDING_MS / OPINION_FLIGHT_PAUSE_MS: {problem}"
            ));
        }
        if let Err(problem) = ChainLength::new(self.flight_chain_length) {
            problems.push(format!("OPINION_FLIGHT_CHAIN_LENGTH: {problem}"));
        }
        if !(10..=1_000).contains(&self.flight_tick_ms) {
            problems.push("OPINION_FLIGHT_TICK_MS must be between 10 and 1000".into());
        }
        if self.live_feed_port.is_some_and(|live| live != 0 && live == self.port) {
            problems.push("OPINION_LIVE_FEED_PORT must differ from OPINION_PORT".into());
        }
        if let Some(url) = &self.public_url
            && !(url.starts_with("https://") || url.starts_with("http://") && self.env != Environment::Production)
        {
            problems.push(format!(
                "OPINION_PUBLIC_URL must be an https:// URL (http:// outside production), got `{url}`"
            ));
        }
        if let Err(problem) = TrustedProxies::parse(&self.trusted_proxies) {
            problems.push(format!("OPINION_TRUSTED_PROXIES: {problem}"));
        }
        if self
            .metrics_token
            .as_ref()
            .is_some_and(|token| token.chars().count() < 32)
        {
            problems.push("OPINION_METRICS_TOKEN must have at least 32 characters".into());
        }
        if !(1..=1_000_000).contains(&self.operator_rate_limit_per_minute) {
            problems.push("OPINION_OPERATOR_RATE_LIMIT_PER_MINUTE must be between 1 and 1000000".into());
        }
        if let Err(problem) = self.exchange().ticker() {
            problems.push(format!("exchange: {problem}"));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError(problems))
        }
    }

    /// The staff login throttle (checked by `validate`); counters are forgotten after a
    /// quiet day, or after the window or the longest lock when either is longer.
    pub fn login_throttle(&self) -> LoginThrottle {
        let seconds = |value: u32| time::Duration::seconds(i64::from(value));
        let window = seconds(self.login_window_seconds);
        let max_lock = seconds(self.login_max_lock_seconds);
        LoginThrottle {
            email_attempts: self.login_email_attempts,
            address_attempts: self.login_address_attempts,
            window,
            lock: seconds(self.login_lock_seconds),
            max_lock,
            forget_after: time::Duration::days(1).max(window).max(max_lock),
        }
    }

    /// The time limits of the service's database sessions, as `validate` checked them.
    pub fn session_limits(&self) -> SessionLimits {
        let millis = |value: u32| Duration::from_millis(u64::from(value));
        SessionLimits {
            statement: millis(self.database_statement_timeout_ms),
            lock: millis(self.database_lock_timeout_ms),
            idle_in_transaction: millis(self.database_idle_in_transaction_timeout_ms),
        }
    }

    /// The configuration admin commands run with: no statement time limit, on purpose
    /// (a month's statement export or a data key rotation may outlast any request, and
    /// platform staff watch them); the lock and idle limits stay.
    pub fn for_admin_commands(&self) -> Config {
        Config {
            database_statement_timeout_ms: 0,
            ..self.clone()
        }
    }

    /// The longest wait for a pooled database connection.
    pub fn acquire_timeout(&self) -> Duration {
        Duration::from_millis(u64::from(self.database_acquire_timeout_ms))
    }

    /// The trusted proxies, as `validate` checked them.
    pub fn trusted_proxies(&self) -> TrustedProxies {
        TrustedProxies::parse(&self.trusted_proxies).unwrap_or_default()
    }

    /// The operator API's rate limit, as `validate` checked it.
    pub fn operator_rate_limit(&self) -> OperatorRateLimit {
        let per_minute = NonZeroU32::new(self.operator_rate_limit_per_minute).unwrap_or(NonZeroU32::MIN);
        OperatorRateLimit::per_minute(per_minute)
    }

    /// Who may scrape `/metrics`: the configured token's holder, else anyone outside
    /// production and nobody in it.
    pub fn metrics_access(&self) -> MetricsAccess {
        match (&self.metrics_token, self.env) {
            (Some(token), _) => MetricsAccess::Token(token.clone()),
            (None, Environment::Production) => MetricsAccess::NotServed,
            (None, _) => MetricsAccess::Open,
        }
    }

    /// The exchange settings, for `ExchangeSettings::ticker` (checked by `validate`).
    pub fn exchange(&self) -> ExchangeSettings {
        ExchangeSettings {
            preset: self.exchange_preset.clone(),
            url: self.exchange_url.clone(),
            pair: self.exchange_pair.clone(),
            price_pointer: self.exchange_price_pointer.clone(),
            timeout_ms: self.exchange_timeout_ms,
            max_answer_bytes: self.exchange_max_answer_bytes,
        }
    }

    /// The public base URL, without a trailing slash, once the listening port is known.
    pub fn public_url_for(&self, port: u16) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{}:{port}", self.host),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_overrides_defaults_and_a_missing_file_is_named() {
        let dir = std::env::temp_dir().join(format!("opinion-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("opinion.toml");
        std::fs::write(&path, "port = 9191\nsession_ttl_minutes = 60\nlog_format = \"json\"\n").expect("write");
        let config = Config::load(Some(&path)).expect("loads");
        assert_eq!(
            (config.port, config.session_ttl_minutes, config.log_format),
            (9191, 60, LogFormat::Json)
        );
        std::fs::write(&path, "prot = 1\n").expect("write");
        let typo = Config::load(Some(&path)).expect_err("unknown key refused").to_string();
        assert!(typo.contains("prot"), "{typo}");
        let missing = Config::load(Some(&dir.join("absent.toml")))
            .expect_err("missing file refused")
            .to_string();
        assert!(missing.contains("absent.toml"), "{missing}");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn the_public_url_defaults_to_the_listening_address_and_must_be_http() {
        assert_eq!(Config::default().public_url_for(9000), "http://127.0.0.1:9000");
        let configured = Config {
            public_url: Some("https://opinion.example.com/".into()),
            ..Config::default()
        };
        assert!(configured.validate().is_ok());
        assert_eq!(configured.public_url_for(9000), "https://opinion.example.com");
        let plain = Config {
            env: Environment::Production,
            database_url: Some("postgres://db/opinion".into()),
            session_secret: Some("x".repeat(32)),
            data_key: Some("y".repeat(32)),
            statement_signing_key: Some("5".repeat(64)),
            public_url: Some("http://opinion.example.com".into()),
            ..Config::default()
        };
        let problems = plain.validate().expect_err("refused").0;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("OPINION_PUBLIC_URL"));
        let garbage = Config {
            public_url: Some("opinion.example.com".into()),
            ..Config::default()
        };
        assert!(garbage.validate().is_err());
    }

    #[test]
    fn the_live_feed_needs_a_port_of_its_own() {
        let same = Config {
            live_feed_port: Some(8080),
            ..Config::default()
        };
        let problems = same.validate().expect_err("refused").0;
        assert_eq!(problems, ["OPINION_LIVE_FEED_PORT must differ from OPINION_PORT"]);
        for port in [Some(8081), Some(0), None] {
            let own = Config {
                live_feed_port: port,
                ..Config::default()
            };
            assert!(own.validate().is_ok(), "{port:?}");
        }
        let free = Config {
            port: 0,
            live_feed_port: Some(0),
            ..Config::default()
        };
        assert!(free.validate().is_ok(), "two free ports are two ports");
    }

    #[test]
    fn a_database_ca_file_must_exist() {
        let missing = Config {
            database_ca_file: Some(PathBuf::from("/nonexistent/db-ca.pem")),
            ..Config::default()
        };
        let problems = missing.validate().expect_err("refused").0;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("OPINION_DATABASE_CA_FILE"), "{problems:?}");
    }

    #[test]
    fn development_needs_nothing() {
        assert!(Config::default().validate().is_ok());
    }

    #[test]
    fn production_names_every_missing_secret() {
        let config = Config {
            env: Environment::Production,
            ..Config::default()
        };
        let problems = config.validate().expect_err("refused").0;
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].contains("DATABASE_URL"));
        assert!(problems[1].contains("OPINION_SESSION_SECRET"));
        assert!(problems[2].contains("OPINION_DATA_KEY"));
        assert!(problems[3].contains("OPINION_STATEMENT_SIGNING_KEY"));
    }

    #[test]
    fn short_secrets_and_silly_bounds_are_refused() {
        let config = Config {
            session_secret: Some("short".into()),
            data_key: Some("short".into()),
            statement_signing_key: Some("not hex".into()),
            session_ttl_minutes: 0,
            database_max_connections: 0,
            webhook_workers: 65,
            webhook_database_connections: 0,
            webhook_poll_interval_ms: 0,
            session_sweep_interval_ms: 5,
            ..Config::default()
        };
        assert_eq!(config.validate().expect_err("refused").0.len(), 9);
    }

    #[test]
    fn database_time_limits_default_to_the_stores_and_are_bounded() {
        let config = Config::default();
        assert_eq!(config.session_limits(), SessionLimits::DEFAULT);
        assert_eq!(config.acquire_timeout(), DEFAULT_ACQUIRE_TIMEOUT);
        let admin = config.for_admin_commands().session_limits();
        assert_eq!(admin, SessionLimits::unbounded_statements(SessionLimits::DEFAULT));
        let silly = Config {
            database_statement_timeout_ms: 0,
            database_lock_timeout_ms: 600_001,
            database_idle_in_transaction_timeout_ms: 999,
            database_acquire_timeout_ms: 99,
            ..Config::default()
        };
        let problems = silly.validate().expect_err("refused").0;
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(
            problems.iter().all(|p| p.starts_with("OPINION_DATABASE_")),
            "{problems:?}"
        );
    }

    #[test]
    fn the_launch_token_lives_a_minute_unless_configured_within_bounds() {
        assert_eq!(Config::default().launch_token_ttl_seconds, 60);
        for (seconds, valid) in [(15, true), (600, true), (14, false), (601, false)] {
            let config = Config {
                launch_token_ttl_seconds: seconds,
                ..Config::default()
            };
            let problems = config.validate().err().map(|e| e.0).unwrap_or_default();
            assert_eq!(problems.is_empty(), valid, "{seconds}: {problems:?}");
            assert!(problems.iter().all(|p| p.contains("OPINION_LAUNCH_TOKEN_TTL_SECONDS")));
        }
    }

    #[test]
    fn no_exchange_by_default_and_a_half_configured_one_is_refused() {
        assert_eq!(Config::default().exchange().ticker(), Ok(None));
        let preset = Config {
            exchange_preset: Some("indodax".into()),
            ..Config::default()
        };
        assert!(preset.exchange().ticker().expect("preset").is_some());
        let half = Config {
            exchange_url: Some("https://rates.example/ticker".into()),
            exchange_timeout_ms: Some(500),
            ..Config::default()
        };
        let problems = half.validate().expect_err("refused").0;
        assert!(
            problems.iter().any(|p| p.contains("OPINION_EXCHANGE_PAIR")),
            "{problems:?}"
        );
        let unknown = Config {
            exchange_preset: Some("nowhere".into()),
            ..Config::default()
        };
        assert!(unknown.validate().is_err());
    }

    #[test]
    fn trusted_proxies_are_addresses_or_networks() {
        let proxies = Config {
            trusted_proxies: "10.0.0.0/8, 127.0.0.1".into(),
            ..Config::default()
        };
        assert!(proxies.validate().is_ok());
        assert_ne!(proxies.trusted_proxies(), TrustedProxies::default());
        let bad = Config {
            trusted_proxies: "10.0.0.0/8, the-proxy".into(),
            ..Config::default()
        };
        let problems = bad.validate().expect_err("refused").0;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("OPINION_TRUSTED_PROXIES") && problems[0].contains("the-proxy"));
    }
}
