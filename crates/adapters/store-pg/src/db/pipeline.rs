//! Writes sent together on one connection. diesel-async sends a statement when its
//! future is first polled, and PostgreSQL runs a connection's statements in the order
//! they arrive, so a step's writes joined here cost one wait for all their answers
//! instead of one round trip each. [`in_order`] polls its writes in the order given, so
//! they are sent, and run, in that order (a statement the connection has not prepared
//! yet holds the statement cache while it is prepared; the ones after it wait their
//! turn behind it). Every answer is awaited; the first failure in that order is the one
//! reported, as it would have been had the writes run one by one (once a statement
//! fails, the later ones of its transaction only say that the transaction is aborted).

use diesel::result::Error as DieselError;
use diesel_async::{AsyncPgConnection, SimpleAsyncConnection};
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, join_all};

/// One write of a pipelined step: a statement, or a few that must run in turn.
pub(crate) type Write<'a, E> = BoxFuture<'a, Result<(), E>>;

/// Runs `writes` pipelined, in the order given, and answers the first failure in that
/// order. Meant for the handful of writes of one step: a short list is polled in order.
pub(crate) async fn in_order<E>(writes: Vec<Write<'_, E>>) -> Result<(), E> {
    join_all(writes).await.into_iter().collect()
}

/// The savepoint [`under_savepoint`] opens; the most recent of the name is the one rolled
/// back to.
const SAVEPOINT: &str = "SAVEPOINT pipelined_writes";
const ROLLBACK: &str = "ROLLBACK TO SAVEPOINT pipelined_writes";

/// Runs `writes` all or nothing inside the transaction `conn` is already in: the
/// savepoint is opened in the same pipeline as the writes (no round trip of its own) and
/// rolled back to when a write failed, so the transaction goes on as if none had run and
/// the first failure is answered. If the rollback itself fails, that failure is
/// answered: the transaction cannot go on.
///
/// The savepoint is not released: the transaction's end does that. Released at once it
/// would cost a round trip; released in the pipeline it would keep the writes before a
/// refusal the database does not see as an error (a compare-and-set that changed no
/// row succeeds as a statement). A savepoint left open costs the rest of the transaction
/// nothing.
pub(crate) async fn under_savepoint<'a, E>(conn: &'a AsyncPgConnection, writes: Vec<Write<'a, E>>) -> Result<(), E>
where
    E: From<DieselError> + Send + 'a,
{
    let mut pipeline: Vec<Write<'a, E>> = Vec::with_capacity(writes.len() + 1);
    pipeline.push(async move { Ok(simple(conn, SAVEPOINT).await?) }.boxed());
    pipeline.extend(writes);
    if let Err(failure) = in_order(pipeline).await {
        simple(conn, ROLLBACK).await?;
        return Err(failure);
    }
    Ok(())
}

/// One statement without parameters, sent in the simple query protocol.
async fn simple(mut conn: &AsyncPgConnection, sql: &'static str) -> Result<(), DieselError> {
    conn.batch_execute(sql).await
}
