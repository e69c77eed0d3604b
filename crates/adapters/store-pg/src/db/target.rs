//! Where and how the service connects: a `DATABASE_URL` read once, with the TLS
//! connector its `sslmode` and CA ask for and the session time limits. Every connection
//! the service opens (the pool, hence the flight driver's lock session, the migrations,
//! creating the development database) is made here, so none of them skips TLS or runs
//! without limits.

use std::fmt;
use std::path::Path;

use diesel::ConnectionError;
use diesel_async::AsyncPgConnection;
use opinion_app::ports::StoreError;
use tokio_postgres::NoTls;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::db::error::{unavailable, with_causes};
use crate::db::session_limits::SessionLimits;
use crate::db::tls::connector::connector;
use crate::db::tls::params;
use crate::db::tls::roots::{CaSource, given_ca};
use crate::db::tls::sslmode::SslMode;

/// A database to connect to, checked once: the connection string parsed, the CA read,
/// the TLS connector built. Cloning is cheap and shares the connector.
#[derive(Clone)]
pub struct DatabaseTarget {
    config: tokio_postgres::Config,
    mode: SslMode,
    ca: Option<CaSource>,
    tls: Option<MakeRustlsConnect>,
    limits: SessionLimits,
}

impl DatabaseTarget {
    /// Reads `database_url` and the CA bundle `ca_file` (`OPINION_DATABASE_CA_FILE`),
    /// which the URL's `sslrootcert` overrides. Fails with `Unavailable` naming the
    /// problem, never the URL (it may hold a password).
    pub fn new(database_url: &str, ca_file: Option<&Path>) -> Result<DatabaseTarget, StoreError> {
        let parsed = params::parse(database_url)
            .map_err(|problem| unavailable("invalid database connection string", &problem))?;
        let ca = given_ca(parsed.root_cert.as_deref(), ca_file);
        let tls = connector(parsed.mode, ca.as_ref())
            .map_err(|problem| unavailable("cannot set up TLS to the database", &problem))?;
        Ok(DatabaseTarget {
            config: parsed.config,
            mode: parsed.mode,
            ca,
            tls,
            limits: SessionLimits::DEFAULT,
        })
    }

    /// The same database, its sessions held to `limits` instead of the defaults.
    pub fn with_limits(self, limits: SessionLimits) -> DatabaseTarget {
        DatabaseTarget { limits, ..self }
    }

    /// The time limits its sessions are held to.
    pub fn limits(&self) -> SessionLimits {
        self.limits
    }

    /// The `sslmode` in force, for the start-up report.
    pub fn ssl_mode(&self) -> SslMode {
        self.mode
    }

    /// Opens one connection outside any pool, its session held to the limits. A refused
    /// certificate or a server without TLS where TLS is required fails with the reason
    /// (`error performing TLS handshake: invalid peer certificate: UnknownIssuer`).
    pub async fn connect(&self) -> Result<AsyncPgConnection, ConnectionError> {
        let failed = |error: tokio_postgres::Error| ConnectionError::BadConnection(with_causes(&error));
        let mut config = self.config.clone();
        // The limits go after any `options` of the URL, so they win over its own.
        let options = match self.config.get_options() {
            Some(given) if !given.trim().is_empty() => format!("{given} {}", self.limits.options()),
            _ => self.limits.options(),
        };
        config.options(&options);
        match &self.tls {
            None => {
                let (client, connection) = config.connect(NoTls).await.map_err(failed)?;
                AsyncPgConnection::try_from_client_and_connection(client, connection).await
            }
            Some(tls) => {
                let (client, connection) = config.connect(tls.clone()).await.map_err(failed)?;
                AsyncPgConnection::try_from_client_and_connection(client, connection).await
            }
        }
    }
}

impl fmt::Debug for DatabaseTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseTarget")
            .field("hosts", &self.config.get_hosts())
            .field("ports", &self.config.get_ports())
            .field("dbname", &self.config.get_dbname())
            .field("sslmode", &self.mode.to_string())
            .field("ca", &self.ca)
            .field("limits", &self.limits)
            .finish()
    }
}
