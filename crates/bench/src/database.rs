//! The bench's private PostgreSQL: a cluster like the one `cargo run` starts for the
//! service (durable, loopback only), kept under `bench/tmp/` for the run, plus the
//! connections the bench itself uses to seed and to count commits.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use opinion_devdb::Cluster;
use tokio_postgres::{Client, NoTls};

/// The service's database inside the cluster.
pub const SERVICE_DATABASE: &str = "opinion";

/// pgbench's own database inside the cluster.
pub const PGBENCH_DATABASE: &str = "pgbench";

/// How long PostgreSQL may hold back a backend's statistics: a busy backend flushes them
/// at most once a second, an idle one within ten seconds.
const STATS_SETTLE: Duration = Duration::from_secs(11);

/// Starts a fresh cluster in `dir` with the service's and pgbench's databases.
pub async fn start_cluster(dir: &Path) -> anyhow::Result<Cluster> {
    let dir = dir.to_path_buf();
    let cluster = tokio::task::spawn_blocking(move || Cluster::start_persistent(&dir))
        .await?
        .context("starting the private PostgreSQL")?;
    let admin = connect(&cluster.url("postgres")).await?;
    for database in [SERVICE_DATABASE, PGBENCH_DATABASE] {
        admin.batch_execute(&format!("CREATE DATABASE {database}")).await?;
    }
    Ok(cluster)
}

/// One connection, driven on its own task.
pub async fn connect(url: &str) -> anyhow::Result<Client> {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    tokio::spawn(async move {
        // The connection ends when the client is dropped; an error then is expected.
        let _ = connection.await;
    });
    Ok(client)
}

/// Counts committed transactions of the service's database from `pg_stat_database`,
/// over a connection to another database so its own readings are not counted.
pub struct CommitCounter {
    client: Client,
}

impl CommitCounter {
    /// A counter over its own connection to the cluster's `postgres` database.
    pub async fn new(cluster: &Cluster) -> anyhow::Result<Self> {
        Ok(Self {
            client: connect(&cluster.url("postgres")).await?,
        })
    }

    /// Transactions the service's database has committed so far, after letting every
    /// backend flush its statistics.
    pub async fn read(&self) -> anyhow::Result<i64> {
        tokio::time::sleep(STATS_SETTLE).await;
        let row = self
            .client
            .query_one(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = $1",
                &[&SERVICE_DATABASE],
            )
            .await?;
        Ok(row.get(0))
    }
}
