//! Writes sent together on one connection. diesel-async sends a statement when its
//! future is first polled, and PostgreSQL runs a connection's statements in the order
//! they arrive, so a step's writes joined here cost one wait for all their answers
//! instead of one round trip each. [`in_order`] polls its writes in the order given, so
//! they are sent, and run, in that order (a statement the connection has not prepared
//! yet holds the statement cache while it is prepared; the ones after it wait their
//! turn behind it). Every answer is awaited; the first failure in that order is the one
//! reported, as it would have been had the writes run one by one (once a statement
//! fails, the later ones of its transaction only say that the transaction is aborted).

use futures_util::future::{BoxFuture, join_all};

/// One write of a pipelined step: a statement, or a few that must run in turn.
pub(crate) type Write<'a, E> = BoxFuture<'a, Result<(), E>>;

/// Runs `writes` pipelined, in the order given, and answers the first failure in that
/// order. Meant for the handful of writes of one step: a short list is polled in order.
pub(crate) async fn in_order<E>(writes: Vec<Write<'_, E>>) -> Result<(), E> {
    join_all(writes).await.into_iter().collect()
}
