//! Wiring: the store, the use cases and the HTTP server, from a configuration.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::HttpServer;
use actix_web::dev::Server;
use anyhow::Context;
use opinion_access::ApiKeyEnvironment;
use opinion_api::ApiState;
use opinion_app::{
    Access, AccessPorts, AccessSettings, SessionTokens, WalletAdapterPorts, WalletAdapterSettings, WalletAdapters,
};
use opinion_store_pg::{DataKey, PgStore};
use time::Duration;

use crate::config::{Config, Environment};
use crate::system_ports::{OsRandom, SystemClock};

/// The service's own secrets, read or made at start-up (see `secrets.rs`).
pub struct Keys {
    /// Signs staff session tokens.
    pub session_secret: Vec<u8>,
    /// Seals signing secrets at rest.
    pub data_key: Vec<u8>,
}

/// The use cases, all over one store.
#[derive(Clone)]
pub struct Services {
    /// Authentication, operators, API keys, staff.
    pub access: Access,
    /// Operators' wallet adapter configurations.
    pub wallet_adapters: WalletAdapters,
}

/// The use cases over the PostgreSQL store at `database_url`, after migrating it.
pub async fn services(config: &Config, database_url: &str, keys: &Keys) -> anyhow::Result<Services> {
    opinion_store_pg::run_migrations(database_url)
        .await
        .context("migrating the database")?;
    let data_key = DataKey::derive(&keys.data_key).context("deriving the data key")?;
    let store = Arc::new(
        PgStore::connect(database_url, config.database_max_connections)
            .await
            .context("connecting to the database")?
            .with_data_key(data_key),
    );
    let ports = AccessPorts {
        operators: store.clone(),
        api_keys: store.clone(),
        staff: store.clone(),
        sessions: store.clone(),
        clock: Arc::new(SystemClock),
        random: Arc::new(OsRandom),
    };
    let settings = AccessSettings {
        environment: key_environment(config.env),
        session_ttl: Duration::minutes(i64::from(config.session_ttl_minutes)),
        session_tokens: SessionTokens::new(&keys.session_secret).map_err(|e| anyhow::anyhow!("{e}"))?,
    };
    let wallet_adapters = WalletAdapters::new(
        WalletAdapterPorts {
            store,
            clock: Arc::new(SystemClock),
            random: Arc::new(OsRandom),
        },
        WalletAdapterSettings {
            production: config.env == Environment::Production,
        },
    );
    Ok(Services {
        access: Access::new(ports, settings),
        wallet_adapters,
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
            wallet_adapters: services.wallet_adapters,
            secure_cookies: config.env != Environment::Development,
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
