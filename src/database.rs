//! Which database the service uses: `DATABASE_URL`, or in development a private
//! PostgreSQL cluster under the data directory, started (or attached to) here.

use anyhow::Context;
use opinion_devdb::Cluster;
use opinion_store_pg::DatabaseTarget;

use crate::config::{Config, Environment};

/// Name of the database inside the private development cluster.
const DEV_DATABASE: &str = "opinion";

/// The database in use, and the private cluster behind it when there is one.
pub struct Database {
    /// Connection URL.
    pub url: String,
    cluster: Option<Cluster>,
}

impl Database {
    /// Resolves the database from the configuration, starting the private cluster if needed.
    pub async fn resolve(config: &Config) -> anyhow::Result<Self> {
        if let Some(url) = &config.database_url {
            return Ok(Self {
                url: url.clone(),
                cluster: None,
            });
        }
        anyhow::ensure!(
            config.env == Environment::Development,
            "set DATABASE_URL: only development starts a private database"
        );
        let dir = std::path::absolute(config.data_dir.join("pg")).context("resolving the data directory")?;
        let cluster = tokio::task::spawn_blocking(move || Cluster::start_persistent(&dir))
            .await
            .context("starting the private database")??;
        tracing::info!(
            port = cluster.port(),
            "using the private development database (set DATABASE_URL to use another)"
        );
        opinion_store_pg::create_database_if_missing(&cluster.url("postgres"), DEV_DATABASE).await?;
        Ok(Self {
            url: cluster.url(DEV_DATABASE),
            cluster: Some(cluster),
        })
    }

    /// Stops the private cluster if this process started it.
    pub fn shut_down(self) {
        if let Some(cluster) = self.cluster
            && let Err(error) = cluster.stop()
        {
            tracing::warn!(%error, "the private database did not stop cleanly");
        }
    }
}

/// The database at `url` with the configured CA (`OPINION_DATABASE_CA_FILE`) and session
/// time limits: every connection the service opens to it, the migrations' included, goes
/// through this, so all of them use the TLS `sslmode` asks for and the limits.
pub fn target(config: &Config, url: &str) -> anyhow::Result<DatabaseTarget> {
    Ok(DatabaseTarget::new(url, config.database_ca_file.as_deref())
        .context("reading DATABASE_URL")?
        .with_limits(config.session_limits()))
}
