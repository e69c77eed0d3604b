//! Wiring: the store, the use cases, the HTTP server and the background workers (webhook
//! delivery, the wallet worker, the player session sweep), from a configuration.

use std::sync::Arc;
use std::time::Duration as StdDuration;

use actix_web::HttpServer;
use actix_web::dev::{Server, ServerHandle};
use anyhow::Context;
use opinion_access::ApiKeyEnvironment;
use opinion_api::player::flight_feed::{FlightFeed, FlightFeedTask};
use opinion_api::{ApiState, LiveFeedListener};
use opinion_app::access::{Access, AccessPorts, AccessSettings, SessionTokens};
use opinion_app::flight::exchange::ExchangeRates;
use opinion_app::flight::office::{FlightOffice, OfficePorts};
use opinion_app::flight::ports::DriverLock;
use opinion_app::flight::reads::{FlightReadPorts, FlightReads};
use opinion_app::flight::{FlightGame, FlightPorts, FlightSettings};
use opinion_app::operations::Operations;
use opinion_app::operations::ports::PoolRole;
use opinion_app::opinion::reads::{OperatorReads, PortfolioLinks, ReadPorts};
use opinion_app::opinion::settlement::{MarketSettlement, WorkerSettings};
use opinion_app::opinion::trading::{Trading, TradingPorts};
use opinion_app::players::ports::ProductGate;
use opinion_app::players::{PlayerTokens, Players, PlayersPorts, PlayersSettings};
use opinion_app::ports::Clock;
use opinion_app::simulator::{SimulatedFlows, Simulator, SimulatorPorts};
use opinion_app::wallet::ports::WalletGateway;
use opinion_app::wallet::{
    WalletAdapterPorts, WalletAdapterSettings, WalletAdapterTest, WalletAdapters, WalletTestPorts,
};
use opinion_app::webhooks::{WebhookPorts, WebhookSettings, Webhooks};
use opinion_exchange_http::{HttpExchangeRates, NoExchangeRates};
use opinion_flight::{AuthorizationRequirement, ChainLength, FlightTiming};
use opinion_metrics::{Listener, MeasuredTransport, MeasuredWallet, Metrics};
use opinion_statement::StatementKey;
use opinion_store_pg::{DataKey, DatabaseTarget, PgStore};
use opinion_wallet_http::{AddressPolicy, HttpWalletGateway};
use opinion_webhook_http::{HttpWebhookTransport, TransportSettings};
use time::Duration;

use crate::config::{Config, Environment};
use crate::database;
use crate::flight_workers::FlightWorkers;
use crate::loop_tasks::LoopTasks;
use crate::session_sweeper::SessionSweeper;
use crate::system_ports::{OsRandom, SystemClock};
use crate::wallet_worker::WalletWorker;
use crate::webhook_workers::WebhookWorkers;

/// How long after a crash the losing tickets are settled (see docs/decisions.md).
const FLIGHT_SETTLE_DELAY: StdDuration = StdDuration::from_secs(1);

/// The most tickets one step of the flight driver moves (see docs/decisions.md): about
/// 2 MiB of a step's records, events and statements.
const FLIGHT_TICKETS_A_STEP: u32 = 500;

/// Endpoints whose clear secrets one start-up transaction seals.
const CLEAR_SECRETS_BATCH: u32 = 500;

/// How long a player session lasts.
const PLAYER_SESSION_TTL: Duration = Duration::hours(8);

/// The service's own secrets, read or made at start-up (see `secrets.rs`).
pub struct Keys {
    /// Signs staff session, launch and player session tokens.
    pub session_secret: Vec<u8>,
    /// Seals signing secrets at rest.
    pub data_key: Vec<u8>,
    /// The data key being replaced, accepted for opening during a rotation only.
    pub data_key_previous: Option<Vec<u8>>,
    /// Signs settlement statements.
    pub statement_key: StatementKey,
}

/// Every use case of the service, all over one store.
#[derive(Clone)]
pub struct Services {
    /// Authentication, operators, API keys, staff.
    pub access: Access,
    /// Operators' wallet adapter configurations.
    pub wallet_adapters: WalletAdapters,
    /// Launches and player sessions, for every product.
    pub players: Players,
    /// Quotes, buys and sells in the hosted Opinion app.
    pub trading: Trading,
    /// Markets, resolution, payouts, the wallet worker and manual review.
    pub settlement: MarketSettlement,
    /// What operators read, and the visibility of their markets.
    pub reads: OperatorReads,
    /// What operators read about the flight product.
    pub flight_reads: FlightReads,
    /// Webhook endpoints, deliveries, replays and the delivery step.
    pub webhooks: Webhooks,
    /// The same use cases over the delivery workers' own connection pool: what the
    /// workers deliver with, so requests and deliveries never wait for each other's
    /// connections.
    pub deliveries: Webhooks,
    /// The full-contract test of operators' wallet adapters.
    pub wallet_test: WalletAdapterTest,
    /// The staging simulator; none in production.
    pub simulator: Option<Simulator>,
    /// The flight game: the driver, tickets, cash-outs, its money and enablement.
    pub flight: FlightGame,
    /// Elects the one instance that drives flights.
    pub driver_lock: Arc<dyn DriverLock>,
    /// The flight back office: statement keys, settlement reports, corrections, payments.
    pub office: FlightOffice,
    /// The platform-wide figures a metrics scrape reads.
    pub operations: Operations,
    /// This instance's metrics, which requests and wallet and webhook calls count into.
    pub metrics: Arc<Metrics>,
}

/// Which wallet adapter addresses an instance accepts and calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalletReach {
    /// The environment's rule: in production only public `https://` addresses.
    ByEnvironment,
    /// Any address, in production too. Never chosen by configuration: only tests use it,
    /// to run a production instance against a stand-in wallet on the loopback address.
    AnyAddress,
}

/// The exchange statements take their comparison-only rate from: the configured ticker,
/// else none (every statement of an operator reporting in another currency then says
/// `not_configured`).
fn exchange_rates(config: &Config, clock: Arc<dyn Clock>) -> anyhow::Result<Arc<dyn ExchangeRates>> {
    let ticker = config.exchange().ticker().context("the exchange settings")?;
    Ok(match ticker {
        Some(source) => {
            tracing::info!(source = %source.source_name(), pair = %source.pair(), "statements take comparison-only rates from an exchange");
            Arc::new(HttpExchangeRates::new(source, clock).context("building the exchange client")?)
        }
        None => Arc::new(NoExchangeRates::new(clock)),
    })
}

/// The data key, accepting the previous one during a rotation.
pub fn data_key(keys: &Keys) -> anyhow::Result<DataKey> {
    let key = DataKey::derive(&keys.data_key).context("deriving the data key")?;
    Ok(match &keys.data_key_previous {
        Some(previous) => key.accepting_previous(DataKey::derive(previous).context("deriving the previous data key")?),
        None => key,
    })
}

/// Seals the webhook signing secrets a release before sealing kept in clear, so none is
/// left in clear once this version has started.
pub async fn seal_clear_webhook_secrets(store: &PgStore) -> anyhow::Result<u64> {
    let mut sealed = 0;
    loop {
        let batch = store
            .seal_clear_webhook_secrets(CLEAR_SECRETS_BATCH)
            .await
            .context("sealing webhook signing secrets kept in clear")?;
        if batch == 0 {
            return Ok(sealed);
        }
        sealed += batch;
    }
}

/// The use cases over the PostgreSQL store at `database_url`, after migrating it.
pub async fn services(config: &Config, database_url: &str, keys: &Keys) -> anyhow::Result<Services> {
    services_reaching(config, database_url, keys, WalletReach::ByEnvironment).await
}

/// `services`, calling wallets at the addresses `reach` allows.
pub async fn services_reaching(
    config: &Config,
    database_url: &str,
    keys: &Keys,
    reach: WalletReach,
) -> anyhow::Result<Services> {
    let target = database::target(config, database_url)?;
    opinion_store_pg::run_migrations_on(&target)
        .await
        .context("migrating the database")?;
    let store = Arc::new(pool(config, &target, config.database_max_connections, keys).await?);
    let delivery_store = Arc::new(
        pool(config, &target, config.webhook_database_connections, keys)
            .await?
            .with_attempt_batches(),
    );
    let encrypted = store.uses_tls().await.context("asking the database about TLS")?;
    tracing::info!(
        sslmode = %target.ssl_mode(),
        encrypted,
        limits = %target.limits(),
        "connected to the database"
    );
    seal_clear_webhook_secrets(&store).await?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let metrics = Arc::new(Metrics::new()?);
    let production = config.env == Environment::Production;
    let public_wallets_only = production && reach == WalletReach::ByEnvironment;
    let trading = trading(public_wallets_only, store.clone(), clock.clone(), &metrics);
    let flight = flight(config, store.clone(), clock.clone(), trading.wallet_gateway())?;
    let players = players(
        config,
        store.clone(),
        Arc::new(flight.clone()),
        clock.clone(),
        &keys.session_secret,
    )?;
    let wallet_adapters = WalletAdapters::new(
        WalletAdapterPorts {
            store: store.clone(),
            clock: clock.clone(),
            random: Arc::new(OsRandom),
        },
        WalletAdapterSettings {
            production: public_wallets_only,
        },
    );
    let office = FlightOffice::new(
        OfficePorts {
            keys: store.clone(),
            store: store.clone(),
            flight: store.clone(),
            proofs: store.clone(),
            operators: store.clone(),
            exchange: exchange_rates(config, clock.clone())?,
            clock: clock.clone(),
            random: Arc::new(OsRandom),
        },
        keys.statement_key.clone(),
    );
    office
        .register_signing_key()
        .await
        .context("registering the statement signing key")?;
    let settlement = MarketSettlement::new(trading.clone(), store.clone(), WorkerSettings::default());
    let simulator = (!production).then(|| {
        let ports = SimulatorPorts {
            store: store.clone(),
            adapters: store.clone(),
            operators: store.clone(),
            clock: clock.clone(),
            random: Arc::new(OsRandom),
        };
        let public_url = config.public_url_for(config.port);
        let flows = SimulatedFlows {
            players: players.clone(),
            trading: trading.clone(),
            settlement: settlement.clone(),
            flight: flight.clone(),
            wallet_adapters: wallet_adapters.clone(),
        };
        Simulator::new(ports, flows, &public_url)
    });
    Ok(Services {
        access: access(config, store.clone(), clock.clone(), &keys.session_secret)?,
        wallet_test: WalletAdapterTest::new(WalletTestPorts {
            adapters: store.clone(),
            wallet: trading.wallet_gateway(),
            operators: store.clone(),
            runs: store.clone(),
            flight_money: Arc::new(flight.clone()),
            clock: clock.clone(),
            random: Arc::new(OsRandom),
        }),
        simulator,
        wallet_adapters,
        settlement,
        flight,
        office,
        driver_lock: store.clone(),
        players,
        trading,
        reads: reads(store.clone(), clock.clone(), &keys.session_secret)?,
        flight_reads: FlightReads::new(FlightReadPorts {
            store: store.clone(),
            webhooks: store.clone(),
            clock: clock.clone(),
        })
        .with_production_authorization(authorization_requirement(config.env)),
        operations: Operations::new(store.clone(), clock.clone())
            .watching(PoolRole::Requests, store.clone())
            .watching(PoolRole::Deliveries, delivery_store.clone()),
        webhooks: webhooks(config, store, clock.clone(), &metrics)?,
        deliveries: webhooks(config, delivery_store, clock, &metrics)?,
        metrics,
    })
}

/// A store over a pool of at most `connections` connections to `target`, waiting for a
/// connection as configured and sealing secrets with the data key.
async fn pool(config: &Config, target: &DatabaseTarget, connections: usize, keys: &Keys) -> anyhow::Result<PgStore> {
    Ok(PgStore::connect_to(target, connections)
        .await
        .context("connecting to the database")?
        .with_acquire_timeout(config.acquire_timeout())
        .with_data_key(data_key(keys)?))
}

/// The webhook use cases over `store`, reading time from `clock`, sending over HTTP,
/// each attempt counted into `metrics`.
pub fn webhooks(
    config: &Config,
    store: Arc<PgStore>,
    clock: Arc<dyn Clock>,
    metrics: &Arc<Metrics>,
) -> anyhow::Result<Webhooks> {
    let production = config.env == Environment::Production;
    let transport = HttpWebhookTransport::new(TransportSettings { production })?;
    let ports = WebhookPorts {
        store,
        transport: Arc::new(MeasuredTransport::new(Arc::new(transport), metrics.clone())),
        clock,
        random: Arc::new(OsRandom),
    };
    Ok(Webhooks::new(ports, WebhookSettings { production }))
}

fn reads(store: Arc<PgStore>, clock: Arc<dyn Clock>, secret: &[u8]) -> anyhow::Result<OperatorReads> {
    let ports = ReadPorts {
        reads: store.clone(),
        markets: store.clone(),
        operators: store,
        clock,
        random: Arc::new(OsRandom),
    };
    // The session secret signs portfolio links too; their audience keeps them apart.
    let links = PortfolioLinks::new(secret).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(OperatorReads::new(ports, links))
}

fn access(config: &Config, store: Arc<PgStore>, clock: Arc<dyn Clock>, secret: &[u8]) -> anyhow::Result<Access> {
    let ports = AccessPorts {
        operators: store.clone(),
        api_keys: store.clone(),
        staff: store.clone(),
        sessions: store.clone(),
        login_attempts: store,
        clock,
        random: Arc::new(OsRandom),
    };
    let settings = AccessSettings {
        environment: key_environment(config.env),
        session_ttl: Duration::minutes(i64::from(config.session_ttl_minutes)),
        session_tokens: SessionTokens::new(secret).map_err(|e| anyhow::anyhow!("{e}"))?,
        login_throttle: config.login_throttle(),
    };
    Ok(Access::new(ports, settings))
}

/// The flight game over `store`, reading time from `clock`, calling wallets with `wallet`.
pub fn flight(
    config: &Config,
    store: Arc<PgStore>,
    clock: Arc<dyn Clock>,
    wallet: Arc<dyn WalletGateway>,
) -> anyhow::Result<FlightGame> {
    let ports = FlightPorts {
        store: store.clone(),
        operators: store.clone(),
        wallet_adapters: store.clone(),
        wallet,
        wallet_test_runs: store.clone(),
        webhooks: store.clone(),
        transactions: store,
        clock,
        random: Arc::new(OsRandom),
    };
    let settings = FlightSettings {
        timing: FlightTiming::new(config.flight_boarding_ms, config.flight_pause_ms)?,
        chain_length: ChainLength::new(config.flight_chain_length)?,
        settle_delay: FLIGHT_SETTLE_DELAY,
        tick: StdDuration::from_millis(config.flight_tick_ms),
        tickets_a_step: FLIGHT_TICKETS_A_STEP,
        money: WorkerSettings::default(),
        production_authorization: authorization_requirement(config.env),
    };
    Ok(FlightGame::new(ports, settings))
}

/// The player use cases over `store`, reading time from `clock`; `products` says which
/// products an operator's players may be launched into.
pub fn players(
    config: &Config,
    store: Arc<PgStore>,
    products: Arc<dyn ProductGate>,
    clock: Arc<dyn Clock>,
    secret: &[u8],
) -> anyhow::Result<Players> {
    let ports = PlayersPorts {
        store: store.clone(),
        settings: store,
        products,
        clock,
        random: Arc::new(OsRandom),
    };
    let settings = PlayersSettings {
        // Replaced by the bound address's URL in `Application::bind`.
        public_url: config.public_url_for(config.port),
        launch_ttl: Duration::seconds(i64::from(config.launch_token_ttl_seconds)),
        player_session_ttl: PLAYER_SESSION_TTL,
        tokens: PlayerTokens::new(secret).map_err(|e| anyhow::anyhow!("{e}"))?,
    };
    Ok(Players::new(ports, settings))
}

fn trading(public_wallets_only: bool, store: Arc<PgStore>, clock: Arc<dyn Clock>, metrics: &Arc<Metrics>) -> Trading {
    let policy = if public_wallets_only {
        AddressPolicy::PublicOnly
    } else {
        AddressPolicy::Any
    };
    let random = Arc::new(OsRandom);
    Trading::new(TradingPorts {
        trades: store.clone(),
        markets: store.clone(),
        operators: store.clone(),
        wallet_adapters: store.clone(),
        wallet: Arc::new(MeasuredWallet::new(
            Arc::new(HttpWalletGateway::new(clock.clone(), random.clone(), policy)),
            metrics.clone(),
        )),
        transactions: store,
        clock,
        random,
    })
}

/// A bound, not yet running HTTP server and its background workers.
pub struct Application {
    server: Server,
    port: u16,
    live_feed: Option<(LiveFeedListener, ApiState)>,
    deliveries: Webhooks,
    settlement: MarketSettlement,
    players: Players,
    flight: FlightGame,
    driver_lock: Option<Arc<dyn DriverLock>>,
    flight_feed: FlightFeedTask,
    flight_tick: StdDuration,
    webhook_workers: usize,
    webhook_poll: StdDuration,
    wallet_worker_interval: StdDuration,
    session_sweep_interval: StdDuration,
}

impl Application {
    /// Binds the configured address (port 0 picks a free port) and builds the server.
    pub fn bind(config: &Config, services: Services) -> anyhow::Result<Self> {
        let listener = opinion_api::bind_listener((config.host.as_str(), config.port))
            .with_context(|| format!("binding {}:{}", config.host, config.port))?;
        let port = listener.local_addr()?.port();
        let public_url = config.public_url_for(port);
        let deliveries = services.deliveries;
        let settlement = services.settlement.clone();
        let players = services.players.clone();
        let flight_tick = StdDuration::from_millis(config.flight_tick_ms);
        let (flight_feed, flight_feed_task) = FlightFeed::start(services.flight.clone(), flight_tick);
        let state = ApiState {
            flight: services.flight.clone(),
            flight_feed,
            access: services.access,
            wallet_adapters: services.wallet_adapters,
            players: services.players.with_public_url(&public_url),
            trading: services.trading,
            reads: services.reads,
            flight_reads: services.flight_reads,
            office: services.office,
            webhooks: services.webhooks,
            wallet_test: services.wallet_test,
            simulator: services
                .simulator
                .map(|simulator| simulator.with_public_url(&public_url)),
            secure_cookies: config.env != Environment::Development,
            public_url,
            trusted_proxies: config.trusted_proxies(),
            rate_limit: config.operator_rate_limit(),
            metrics: services.metrics,
            operations: services.operations,
            metrics_access: config.metrics_access(),
        };
        let live_feed = match config.live_feed_port {
            Some(port) => {
                let listener = LiveFeedListener::bind((config.host.as_str(), port))
                    .with_context(|| format!("binding the live feed's {}:{port}", config.host))?;
                Some((listener, state.clone()))
            }
            None => None,
        };
        let metrics = state.metrics.clone();
        let server = HttpServer::new(move || opinion_api::app(state.clone()))
            .on_connect(move |_, extensions| {
                extensions.insert(metrics.connection_opened(Listener::Service));
            })
            .listen(listener)?
            .shutdown_timeout(30)
            .run();
        Ok(Self {
            server,
            port,
            live_feed,
            deliveries,
            settlement,
            players,
            flight: services.flight,
            driver_lock: config.flight_driver.then_some(services.driver_lock),
            flight_feed: flight_feed_task,
            flight_tick,
            webhook_workers: config.webhook_workers,
            webhook_poll: StdDuration::from_millis(config.webhook_poll_interval_ms),
            wallet_worker_interval: StdDuration::from_millis(config.wallet_worker_interval_ms),
            session_sweep_interval: StdDuration::from_millis(config.session_sweep_interval_ms),
        })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The live feed's own port, when it has one (`live_feed_port`).
    pub fn live_feed_port(&self) -> Option<u16> {
        let (listener, _) = self.live_feed.as_ref()?;
        listener.local_addr().ok().map(|address| address.port())
    }

    /// A handle that stops the server from outside: `stop(true)` is the graceful
    /// shutdown SIGINT and SIGTERM start, after which `run` stops the loops and returns.
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves (the live feed on its own listener too, when it has one), delivers webhooks,
    /// runs the wallet worker and sweeps expired player sessions until SIGINT or SIGTERM
    /// (or `handle().stop`), then finishes in-flight requests, attempts and passes, stops
    /// accepting live pages and ends the open ones with the feed, and returns. Dropping
    /// the future before that (its task aborted) closes the listeners and aborts every
    /// background loop, as the process's death would: the flight driver's lease goes with
    /// its loop.
    pub async fn run(self) -> std::io::Result<()> {
        let webhook_workers = WebhookWorkers::start(&self.deliveries, self.webhook_workers, self.webhook_poll);
        let wallet_worker = (!self.wallet_worker_interval.is_zero())
            .then(|| WalletWorker::start(self.settlement, self.wallet_worker_interval));
        let session_sweeper = (!self.session_sweep_interval.is_zero())
            .then(|| SessionSweeper::start(self.players, self.session_sweep_interval));
        let flight_workers = self.driver_lock.map(|lock| {
            let money = (!self.wallet_worker_interval.is_zero()).then_some(self.wallet_worker_interval);
            FlightWorkers::start(self.flight, lock, self.flight_tick, money)
        });
        let mut live_feed = LoopTasks::new();
        if let Some((listener, state)) = self.live_feed {
            live_feed.spawn(listener.serve(state, live_feed.stopped())?);
        }
        let served = self.server.await;
        live_feed.stop("the live feed's listener").await;
        if let Some(workers) = flight_workers {
            workers.stop().await;
        }
        self.flight_feed.stop().await;
        webhook_workers.stop().await;
        if let Some(worker) = wallet_worker {
            worker.stop().await;
        }
        if let Some(sweeper) = session_sweeper {
            sweeper.stop().await;
        }
        served
    }
}

/// Only production needs a production authorization for flight (FLIGHT.md §3).
pub fn authorization_requirement(env: Environment) -> AuthorizationRequirement {
    match env {
        Environment::Production => AuthorizationRequirement::Required,
        Environment::Development | Environment::Staging => AuthorizationRequirement::NotRequired,
    }
}

fn key_environment(env: Environment) -> ApiKeyEnvironment {
    match env {
        Environment::Development => ApiKeyEnvironment::Development,
        Environment::Staging => ApiKeyEnvironment::Staging,
        Environment::Production => ApiKeyEnvironment::Production,
    }
}
