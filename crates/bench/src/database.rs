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

/// Loads `pg_stat_statements`, planning time included.
const STATEMENTS_SETTINGS: &str =
    "\nshared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track_planning = on\n";

/// Starts a fresh cluster in `dir` with the service's and pgbench's databases (with
/// `statements`, `pg_stat_statements` loaded and created in the service's). The cluster is
/// stopped and deleted when the bench ends, however it ends.
pub async fn start_cluster(dir: &Path, statements: bool) -> anyhow::Result<Cluster> {
    let dir = dir.to_path_buf();
    let settings = if statements { STATEMENTS_SETTINGS } else { "" };
    let cluster = tokio::task::spawn_blocking(move || Cluster::start_scratch(&dir, settings))
        .await?
        .context("starting the private PostgreSQL")?;
    let admin = connect(&cluster.url("postgres")).await?;
    for database in [SERVICE_DATABASE, PGBENCH_DATABASE] {
        admin.batch_execute(&format!("CREATE DATABASE {database}")).await?;
    }
    if statements {
        connect(&cluster.url(SERVICE_DATABASE))
            .await?
            .batch_execute("CREATE EXTENSION pg_stat_statements")
            .await?;
    }
    Ok(cluster)
}

/// One statement's share of a batch of buys, from `pg_stat_statements`.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatementCost {
    /// The statement, shortened.
    pub query: String,
    /// Executions per buy.
    pub calls_per_buy: f64,
    /// Plans made per buy: as many as the calls when the statement is planned afresh each
    /// time (not prepared, or prepared with custom plans), none once a generic plan is kept.
    pub plans_per_buy: f64,
    /// Mean execution time, milliseconds.
    pub mean_ms: f64,
    /// Execution and planning time per buy, milliseconds.
    pub ms_per_buy: f64,
}

/// How many statements a buy's profile lists, the costliest first: enough for every
/// statement a buy sends and what the workers send meanwhile.
const PROFILED_STATEMENTS: i64 = 40;

/// `pg_stat_statements` of the service's database, when loaded.
pub struct Statements {
    client: Client,
}

impl Statements {
    /// Connects to the service's database of `cluster`.
    pub async fn new(cluster: &Cluster) -> anyhow::Result<Self> {
        Ok(Self {
            client: connect(&cluster.url(SERVICE_DATABASE)).await?,
        })
    }

    /// Forgets everything recorded so far.
    pub async fn reset(&self) -> anyhow::Result<()> {
        self.client.batch_execute("SELECT pg_stat_statements_reset()").await?;
        Ok(())
    }

    /// The full text of every recorded statement matching the SQL `LIKE` pattern `like`.
    pub async fn matching(&self, like: &str) -> anyhow::Result<Vec<String>> {
        let rows = self
            .client
            .query(
                "SELECT query FROM pg_stat_statements
                 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                   AND query LIKE $1",
                &[&like],
            )
            .await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    /// The statements by time spent executing and planning, per buy of a batch of `buys`:
    /// the costliest [`PROFILED_STATEMENTS`].
    pub async fn per_buy(&self, buys: u64) -> anyhow::Result<Vec<StatementCost>> {
        let rows = self
            .client
            .query(
                "SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 160), calls, plans, mean_exec_time,
                        total_exec_time + total_plan_time
                 FROM pg_stat_statements
                 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                   AND query NOT LIKE '%pg_stat_statements%'
                 ORDER BY total_exec_time + total_plan_time DESC LIMIT $1",
                &[&PROFILED_STATEMENTS],
            )
            .await?;
        let buys = buys.max(1) as f64;
        Ok(rows
            .iter()
            .map(|row| StatementCost {
                query: row.get(0),
                calls_per_buy: row.get::<_, i64>(1) as f64 / buys,
                plans_per_buy: row.get::<_, i64>(2) as f64 / buys,
                mean_ms: row.get(3),
                ms_per_buy: row.get::<_, f64>(4) / buys,
            })
            .collect())
    }
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
