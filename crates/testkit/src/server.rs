//! The PostgreSQL server the tests use and the migrated template on it, set up once per test process.

use std::sync::OnceLock;

use opinion_devdb::Cluster;

use crate::admin::{execute, on_own_runtime};
use crate::names::{quoted, unique, with_database};

/// Where test databases are created. Plain data only: tests run on different tokio runtimes, so no
/// connection or pool may outlive the runtime that opened it.
pub(crate) struct Server {
    /// URL of a database on the server to run CREATE/DROP DATABASE from.
    pub(crate) admin_url: String,
    /// The migrated database every test database is copied from.
    pub(crate) template: String,
    /// Whether each test drops its database: only needed on a server that outlives this process.
    pub(crate) drop_databases: bool,
    /// Our private cluster, held so it lives until the process exits; its watchdog then removes it.
    _cluster: Option<Cluster>,
}

/// Set up by the first test that needs it; a failure is kept too, so every test reports it at once.
static SERVER: OnceLock<Result<Server, String>> = OnceLock::new();

/// The process's server and template, created on first use. Blocks for seconds the first time, so
/// call it off the async threads.
pub(crate) fn shared() -> Result<&'static Server, String> {
    SERVER.get_or_init(set_up).as_ref().map_err(Clone::clone)
}

/// Picks the server (`DATABASE_URL` or a private cluster) and builds the template on it.
fn set_up() -> Result<Server, String> {
    let (admin_url, cluster) = match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => {
            if !url.contains("://") {
                return Err("DATABASE_URL must be a URL like postgres://user:password@host:5432/postgres".to_owned());
            }
            (url, None)
        }
        _ => {
            let cluster = Cluster::start_ephemeral()
                .map_err(|err| format!("cannot start a private PostgreSQL for the tests: {err}"))?;
            (cluster.url("postgres"), Some(cluster))
        }
    };
    let template = unique("opinion_tpl");
    on_own_runtime(build_template(admin_url.clone(), template.clone()))??;
    Ok(Server {
        drop_databases: cluster.is_none(),
        admin_url,
        template,
        _cluster: cluster,
    })
}

/// Creates the template database and migrates it, then closes it to connections: a template with a
/// session on it cannot be copied.
async fn build_template(admin_url: String, template: String) -> Result<(), String> {
    let name = quoted(&template);
    execute(&admin_url, &format!("CREATE DATABASE {name}")).await?;
    opinion_store_pg::run_migrations(&with_database(&admin_url, &template))
        .await
        .map_err(|err| format!("cannot migrate the template database {template}: {err}"))?;
    let close = format!(
        "ALTER DATABASE {name} ALLOW_CONNECTIONS false; \
         SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{template}'"
    );
    execute(&admin_url, &close).await
}
