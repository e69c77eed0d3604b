//! Running administrative SQL (CREATE/DROP DATABASE) on a short-lived connection.

use std::future::Future;

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};

/// Runs `sql` over a new connection to `url` that is closed again before returning, so it never
/// keeps a database busy (a template with a session on it cannot be copied).
pub(crate) async fn execute(url: &str, sql: &str) -> Result<(), String> {
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .map_err(|err| format!("cannot connect to PostgreSQL: {err}"))?;
    conn.batch_execute(sql)
        .await
        .map_err(|err| format!("`{sql}` failed: {err}"))
}

/// Runs `work` to completion on a new thread with its own runtime, for the places that cannot use
/// the caller's: one-time set-up shared by tests on different runtimes, and `Drop`. The runtime and
/// everything spawned on it, connections included, are gone when this returns.
pub(crate) fn on_own_runtime<F>(work: F) -> Result<F::Output, String>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map(|runtime| runtime.block_on(work))
            .map_err(|err| format!("cannot build a tokio runtime: {err}"))
    })
    .join()
    .map_err(|_| "the database helper thread panicked".to_owned())?
}
