//! A transaction whose session settings travel with its `BEGIN`: one message, one round
//! trip, where `BEGIN` and then `SET LOCAL` cost two. Diesel's own `transaction` sends a
//! bare `BEGIN`; this one begins with the caller's statement and then commits or rolls
//! back exactly as diesel's does, so the connection's transaction state stays true and a
//! pool still refuses a connection left inside it.

use diesel::result::Error as DieselError;
use diesel_async::{AnsiTransactionManager, AsyncPgConnection, TransactionManager};

/// Runs `body` in a transaction opened by `begin` (`BEGIN` followed by its `SET LOCAL`s,
/// sent as one simple query), committed when `body` succeeds and rolled back when it
/// fails. A failed rollback is answered in place of the body's error unless the
/// connection was already known to be broken, as diesel's `transaction` does.
pub(crate) async fn tuned_transaction<R, E>(
    conn: &mut AsyncPgConnection,
    begin: &str,
    body: impl AsyncFnOnce(&mut AsyncPgConnection) -> Result<R, E>,
) -> Result<R, E>
where
    E: From<DieselError>,
{
    AnsiTransactionManager::begin_transaction_sql(&mut *conn, begin).await?;
    match body(&mut *conn).await {
        Ok(value) => {
            AnsiTransactionManager::commit_transaction(conn).await?;
            Ok(value)
        }
        Err(failure) => match AnsiTransactionManager::rollback_transaction(conn).await {
            Ok(()) | Err(DieselError::BrokenTransactionManager) => Err(failure),
            Err(rollback) => Err(rollback.into()),
        },
    }
}
