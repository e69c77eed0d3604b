//! `Transactions` for PostgreSQL: one pooled connection, in a transaction, held for the
//! task that runs a use case's step. While the step runs, `PgStore::conn` hands every
//! store call of that task the same connection (a task-local), so the step's reads and
//! its write share one transaction and one commit; the write's own `transaction` becomes
//! a savepoint inside it. Other tasks, and tasks the step spawns, keep using the pool.
//!
//! A store call holds the step's connection alone (`Conn`), except a read that only
//! sends one statement and reads its answer: it shares it (`SharedConn`), so reads the
//! step asks for together are sent together and answered in one round trip (PostgreSQL
//! runs a connection's statements in the order they arrive).
//!
//! A step's `BEGIN` costs no round trip of its own: it is sent first and the step runs
//! meanwhile, so it travels with the step's first statements (PostgreSQL runs them after
//! it, inside the transaction). Diesel's transaction manager is told of the transaction
//! before the step runs, so a write's own `transaction` is a savepoint, as with a `BEGIN`
//! awaited first. The step's writes take the connection alone, so none is sent before
//! `BEGIN` has been answered; only reads can travel with it.
//!
//! A step dropped half-way (its request cancelled) leaves its connection inside an open
//! transaction; the pool then finds it broken and closes it, and PostgreSQL rolls the
//! transaction back.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use async_trait::async_trait;
use diesel::connection::{TransactionDepthChange, TransactionManagerStatus};
use diesel::result::Error as DieselError;
use diesel_async::pooled_connection::deadpool::Object;
use diesel_async::{AnsiTransactionManager, AsyncPgConnection, SimpleAsyncConnection, TransactionManager};
use futures_util::future::join;
use opinion_app::ports::{StoreError, TransactionWork, Transactions};
use tokio::sync::{OwnedRwLockReadGuard, OwnedRwLockWriteGuard, RwLock};

use crate::db::error::from_diesel;
use crate::db::pool::PgStore;

/// A connection of the pool.
pub(crate) type Pooled = Object<AsyncPgConnection>;

tokio::task_local! {
    /// The connection of the step the current task runs, in its transaction.
    static STEP: Arc<RwLock<Pooled>>;
}

/// The connection a store call uses: its own from the pool, or its step's, held as the
/// guard `G` holds it.
pub(crate) enum StoreConn<G> {
    /// Taken from the pool for this call (boxed: the pooled connection is large, the
    /// step's guard a pointer).
    Pooled(Box<Pooled>),
    /// The running step's, in the step's transaction.
    InStep(G),
}

/// A connection held alone: for anything that may open a savepoint or a transaction.
pub(crate) type Conn = StoreConn<OwnedRwLockWriteGuard<Pooled>>;

/// A connection a read of one statement shares with the other reads its step sends
/// meanwhile. Pipelined through a shared reference (`&AsyncPgConnection`), it can send
/// no transaction control of its own.
pub(crate) type SharedConn = StoreConn<OwnedRwLockReadGuard<Pooled>>;

impl<G: Deref<Target = Pooled>> Deref for StoreConn<G> {
    type Target = AsyncPgConnection;

    fn deref(&self) -> &AsyncPgConnection {
        match self {
            StoreConn::Pooled(conn) => conn,
            StoreConn::InStep(conn) => conn,
        }
    }
}

impl<G: DerefMut<Target = Pooled>> DerefMut for StoreConn<G> {
    fn deref_mut(&mut self) -> &mut AsyncPgConnection {
        match self {
            StoreConn::Pooled(conn) => conn,
            StoreConn::InStep(conn) => conn,
        }
    }
}

/// The running step's connection, held alone, if the current task runs one.
pub(crate) async fn step_connection() -> Option<OwnedRwLockWriteGuard<Pooled>> {
    let step = STEP.try_with(Arc::clone).ok()?;
    Some(step.write_owned().await)
}

/// The running step's connection, shared with its other reads, if the current task runs
/// one.
pub(crate) async fn shared_step_connection() -> Option<OwnedRwLockReadGuard<Pooled>> {
    let step = STEP.try_with(Arc::clone).ok()?;
    Some(step.read_owned().await)
}

#[async_trait]
impl Transactions for PgStore {
    async fn run<'a>(&self, work: TransactionWork<'a>) -> Result<(), StoreError> {
        if STEP.try_with(|_| ()).is_ok() {
            work.await;
            return Ok(());
        }
        let mut conn = self.pooled().await?;
        note_transaction_begun(&mut conn).map_err(from_diesel)?;
        let step = Arc::new(RwLock::new(conn));
        let begin_holder = Arc::clone(&step).read_owned().await;
        let begin = async move {
            let mut conn: &AsyncPgConnection = &begin_holder;
            conn.batch_execute("BEGIN").await
        };
        let (begun, commit) = join(begin, STEP.scope(Arc::clone(&step), work)).await;
        let mut conn = step.write_owned().await;
        let conn: &mut AsyncPgConnection = &mut conn;
        if commit && begun.is_ok() {
            AnsiTransactionManager::commit_transaction(conn).await
        } else {
            AnsiTransactionManager::rollback_transaction(conn).await
        }
        .and(begun)
        .map_err(from_diesel)
    }
}

/// Tells diesel's transaction manager that `conn` is inside a transaction whose `BEGIN`
/// the caller sends: what `begin_transaction` records after its `BEGIN` is answered.
/// Refused on a connection already in a transaction or whose manager is broken, as
/// `begin_transaction` refuses it.
fn note_transaction_begun(conn: &mut AsyncPgConnection) -> Result<(), DieselError> {
    match AnsiTransactionManager::transaction_manager_status_mut(conn) {
        TransactionManagerStatus::Valid(status) if status.transaction_depth().is_some() => {
            Err(DieselError::AlreadyInTransaction)
        }
        TransactionManagerStatus::Valid(status) => {
            status.change_transaction_depth(TransactionDepthChange::IncreaseDepth)
        }
        TransactionManagerStatus::InError => Err(DieselError::BrokenTransactionManager),
    }
}

#[cfg(test)]
mod tests;
