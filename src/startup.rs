//! Wiring: the store, the use cases, the HTTP server and the webhook delivery workers,
//! from a configuration.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration as StdDuration;

use actix_web::HttpServer;
use actix_web::dev::Server;
use anyhow::Context;
use opinion_access::ApiKeyEnvironment;
use opinion_api::ApiState;
use opinion_app::ports::Clock;
use opinion_app::{Access, AccessPorts, AccessSettings, SessionTokens, WebhookPorts, WebhookSettings, Webhooks};
use opinion_store_pg::PgStore;
use opinion_webhook::ATTEMPT_TIMEOUT_SECS;
use opinion_webhook_http::{HttpWebhookTransport, TransportSettings};
use time::Duration;

use crate::config::{Config, Environment};
use crate::system_ports::{OsRandom, SystemClock};
use crate::webhook_workers::WebhookWorkers;

/// Every use case of the service.
#[derive(Clone)]
pub struct Services {
    /// Authentication, API keys, staff.
    pub access: Access,
    /// Webhook endpoints, deliveries, replays and the delivery step.
    pub webhooks: Webhooks,
}

/// The use cases over the PostgreSQL store at `database_url`, after migrating it.
pub async fn services(config: &Config, database_url: &str, session_secret: &[u8]) -> anyhow::Result<Services> {
    opinion_store_pg::run_migrations(database_url)
        .await
        .context("migrating the database")?;
    let store = Arc::new(
        PgStore::connect(database_url, config.database_max_connections)
            .await
            .context("connecting to the database")?,
    );
    Ok(Services {
        access: access_over(config, store.clone(), session_secret)?,
        webhooks: webhooks(config, store, Arc::new(SystemClock))?,
    })
}

/// The access use cases alone (the admin command).
pub async fn access(config: &Config, database_url: &str, session_secret: &[u8]) -> anyhow::Result<Access> {
    Ok(services(config, database_url, session_secret).await?.access)
}

/// The webhook use cases over `store`, reading time from `clock`, sending over HTTP.
pub fn webhooks(config: &Config, store: Arc<PgStore>, clock: Arc<dyn Clock>) -> anyhow::Result<Webhooks> {
    let production = config.env == Environment::Production;
    let transport = HttpWebhookTransport::new(TransportSettings {
        production,
        timeout: StdDuration::from_secs(ATTEMPT_TIMEOUT_SECS),
    })?;
    let ports = WebhookPorts {
        store,
        transport: Arc::new(transport),
        clock,
        random: Arc::new(OsRandom),
    };
    Ok(Webhooks::new(ports, WebhookSettings { production }))
}

fn access_over(config: &Config, store: Arc<PgStore>, session_secret: &[u8]) -> anyhow::Result<Access> {
    let ports = AccessPorts {
        operators: store.clone(),
        api_keys: store.clone(),
        staff: store.clone(),
        sessions: store,
        clock: Arc::new(SystemClock),
        random: Arc::new(OsRandom),
    };
    let settings = AccessSettings {
        environment: key_environment(config.env),
        session_ttl: Duration::minutes(i64::from(config.session_ttl_minutes)),
        session_tokens: SessionTokens::new(session_secret).map_err(|e| anyhow::anyhow!("{e}"))?,
    };
    Ok(Access::new(ports, settings))
}

/// A bound, not yet running HTTP server and its delivery workers.
pub struct Application {
    server: Server,
    port: u16,
    webhooks: Webhooks,
    workers: usize,
    poll: StdDuration,
}

impl Application {
    /// Binds the configured address (port 0 picks a free port) and builds the server.
    pub fn bind(config: &Config, services: Services) -> anyhow::Result<Self> {
        let listener = TcpListener::bind((config.host.as_str(), config.port))
            .with_context(|| format!("binding {}:{}", config.host, config.port))?;
        let port = listener.local_addr()?.port();
        let webhooks = services.webhooks.clone();
        let state = ApiState {
            access: services.access,
            webhooks: services.webhooks,
            secure_cookies: config.env != Environment::Development,
        };
        let server = HttpServer::new(move || opinion_api::app(state.clone()))
            .listen(listener)?
            .shutdown_timeout(30)
            .run();
        Ok(Self {
            server,
            port,
            webhooks,
            workers: config.webhook_workers,
            poll: StdDuration::from_millis(config.webhook_poll_interval_ms),
        })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves and delivers webhooks until SIGINT or SIGTERM, then finishes in-flight
    /// requests and attempts and returns.
    pub async fn run(self) -> std::io::Result<()> {
        let workers = WebhookWorkers::start(&self.webhooks, self.workers, self.poll);
        let served = self.server.await;
        workers.stop().await;
        served
    }
}

fn key_environment(env: Environment) -> ApiKeyEnvironment {
    match env {
        Environment::Development => ApiKeyEnvironment::Development,
        Environment::Staging => ApiKeyEnvironment::Staging,
        Environment::Production => ApiKeyEnvironment::Production,
    }
}
