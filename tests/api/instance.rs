//! One more instance of the service over a test's database that the test can stop
//! gracefully or kill: killing aborts its task (its listener closes and every loop dies
//! mid-step, as in a dead process) and terminates every database session it had open, as
//! PostgreSQL does when a process's connections drop. Its sessions carry the instance's
//! name as `application_name`, so the test can see which instance holds a lock.

use actix_web::dev::ServerHandle;
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use opinion::config::Config;
use opinion::startup::{self, Application};
use opinion_testkit::TestDatabase;
use tokio::task::JoinHandle;

use crate::helpers::test_config;

/// A running instance.
pub struct Instance {
    /// Its name, the `application_name` of its database sessions.
    pub name: String,
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// The live feed's URL on its own listener, when the configuration gave it one.
    pub live_feed: Option<String>,
    server: ServerHandle,
    task: JoinHandle<std::io::Result<()>>,
    database_url: String,
}

impl Instance {
    /// Starts instance `name` over `db` with the test configuration `configure` returns.
    pub async fn start(db: &TestDatabase, name: &str, configure: impl FnOnce(Config) -> Config) -> Self {
        let separator = if db.url().contains('?') { '&' } else { '?' };
        let url = format!("{}{separator}application_name={name}", db.url());
        let config = configure(test_config(&url, 0));
        let keys = opinion::secrets::keys(&config).expect("keys");
        let services = startup::services(&config, &url, &keys).await.expect("wiring");
        let application = Application::bind(&config, services).expect("bind");
        let address = format!("http://127.0.0.1:{}", application.port());
        let live_feed = application
            .live_feed_port()
            .map(|port| format!("http://127.0.0.1:{port}/api/player/flight/live"));
        let server = application.handle();
        let task = tokio::spawn(application.run());
        Self {
            name: name.to_owned(),
            address,
            live_feed,
            server,
            task,
            database_url: db.url().to_owned(),
        }
    }

    /// Drops the instance's `run` future (its task aborted) and nothing else: whatever
    /// it leaves running would go on running in the process.
    pub async fn abort(self) -> String {
        self.task.abort();
        let _ = self.task.await;
        self.database_url
    }

    /// Kills the instance: its task is aborted and its sessions on this test's database
    /// terminated (only this database's: other tests' instances may share the name).
    pub async fn kill(self) {
        let name = self.name.clone();
        let database_url = self.abort().await;
        let mut conn = AsyncPgConnection::establish(&database_url).await.expect("connect");
        let sql = format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND application_name = '{name}'"
        );
        conn.batch_execute(&sql).await.expect("terminate");
    }

    /// Stops the instance as SIGTERM does and waits (up to 30 s) until it has returned.
    pub async fn shut_down(self) -> std::io::Result<()> {
        self.server.stop(true).await;
        tokio::time::timeout(std::time::Duration::from_secs(30), self.task)
            .await
            .expect("the instance stopped within 30 s")
            .expect("the instance's task")
    }
}
