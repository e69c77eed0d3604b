//! Wiring: the store, the use cases and the HTTP server, from a configuration.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::HttpServer;
use actix_web::dev::Server;
use anyhow::Context;
use opinion_access::ApiKeyEnvironment;
use opinion_api::ApiState;
use opinion_app::{Access, AccessPorts, AccessSettings, OperatorReads, PortfolioLinks, ReadPorts, SessionTokens};
use opinion_store_pg::PgStore;
use time::Duration;

use crate::config::{Config, Environment};
use crate::system_ports::{OsRandom, SystemClock};

/// The use cases the service runs, over one store.
#[derive(Clone)]
pub struct Services {
    /// Authentication, operators, API keys, staff.
    pub access: Access,
    /// What operators read, and the visibility of their markets.
    pub reads: OperatorReads,
}

/// The access use cases over the PostgreSQL store at `database_url`, after migrating it.
pub async fn access(config: &Config, database_url: &str, session_secret: &[u8]) -> anyhow::Result<Access> {
    Ok(services(config, database_url, session_secret).await?.access)
}

/// Every use case over the PostgreSQL store at `database_url`, after migrating it.
pub async fn services(config: &Config, database_url: &str, session_secret: &[u8]) -> anyhow::Result<Services> {
    opinion_store_pg::run_migrations(database_url)
        .await
        .context("migrating the database")?;
    let store = Arc::new(
        PgStore::connect(database_url, config.database_max_connections)
            .await
            .context("connecting to the database")?,
    );
    let reads = OperatorReads::new(
        ReadPorts {
            reads: store.clone(),
            visibility: store.clone(),
            operators: store.clone(),
            clock: Arc::new(SystemClock),
            random: Arc::new(OsRandom),
        },
        // The session secret signs portfolio links too; their audience keeps them apart.
        PortfolioLinks::new(session_secret).map_err(|e| anyhow::anyhow!("{e}"))?,
    );
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
    Ok(Services {
        access: Access::new(ports, settings),
        reads,
    })
}

/// A bound, not yet running HTTP server.
pub struct Application {
    server: Server,
    port: u16,
}

impl Application {
    /// Binds the configured address (port 0 picks a free port) and builds the server.
    pub fn bind(config: &Config, services: Services) -> anyhow::Result<Self> {
        let listener = TcpListener::bind((config.host.as_str(), config.port))
            .with_context(|| format!("binding {}:{}", config.host, config.port))?;
        let port = listener.local_addr()?.port();
        let state = ApiState {
            access: services.access,
            reads: services.reads,
            secure_cookies: config.env != Environment::Development,
            public_url: config.public_url_for(port),
        };
        let server = HttpServer::new(move || opinion_api::app(state.clone()))
            .listen(listener)?
            .shutdown_timeout(30)
            .run();
        Ok(Self { server, port })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGINT or SIGTERM, then finishes in-flight requests and returns.
    pub async fn run(self) -> std::io::Result<()> {
        self.server.await
    }
}

fn key_environment(env: Environment) -> ApiKeyEnvironment {
    match env {
        Environment::Development => ApiKeyEnvironment::Development,
        Environment::Staging => ApiKeyEnvironment::Staging,
        Environment::Production => ApiKeyEnvironment::Production,
    }
}
