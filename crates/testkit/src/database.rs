//! The per-test database.

use crate::admin::{execute, on_own_runtime};
use crate::names::{quoted, unique, with_database};
use crate::server;

/// A freshly created, fully migrated database that belongs to one test.
pub struct TestDatabase {
    /// The database's name on the server.
    name: String,
    /// How the test connects to it.
    url: String,
    /// Where to drop it from when the test is done; `None` on our private cluster, which is deleted
    /// as a whole when the process exits.
    drop_via: Option<String>,
}

impl TestDatabase {
    /// Creates a new database for the calling test as a copy of the process's migrated template, which
    /// is much faster than migrating. Panics with the reason if there is no usable PostgreSQL.
    pub async fn create() -> TestDatabase {
        let server = tokio::task::spawn_blocking(server::shared)
            .await
            .unwrap_or_else(|err| panic!("the test database set-up task failed: {err}"))
            .unwrap_or_else(|err| panic!("{err}"));
        let name = unique("test");
        let sql = format!(
            "CREATE DATABASE {} TEMPLATE {}",
            quoted(&name),
            quoted(&server.template)
        );
        if let Err(err) = execute(&server.admin_url, &sql).await {
            panic!("cannot create the test database: {err}");
        }
        TestDatabase {
            url: with_database(&server.admin_url, &name),
            drop_via: server.drop_databases.then(|| server.admin_url.clone()),
            name,
        }
    }

    /// Connection URL of this test's database.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for TestDatabase {
    /// Drops the database on a server that outlives the process. `Drop` cannot await, so this runs on
    /// a runtime of its own; `FORCE` disconnects pools the test left open. Failing only warns, since
    /// panicking here would hide the test's own result.
    fn drop(&mut self) {
        let Some(admin_url) = self.drop_via.take() else {
            return;
        };
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", quoted(&self.name));
        let dropped = on_own_runtime(async move { execute(&admin_url, &sql).await }).and_then(|result| result);
        if let Err(err) = dropped {
            eprintln!("warning: the test database {} was not dropped: {err}", self.name);
        }
    }
}
