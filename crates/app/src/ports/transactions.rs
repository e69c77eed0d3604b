//! One database transaction around a part of a use case. A use case that reads and then
//! writes as one step (a buy's opening: its replay check, the market, the wallet target
//! and the currency, then the trade with its debit) runs that part through
//! `Transactions`, and every store call made inside it shares the transaction: one commit
//! for the step instead of one per read. Nothing that waits on the outside world (a
//! wallet call, a wait for a concurrent twin) belongs inside.

use std::future::Future;
use std::pin::Pin;

use async_trait::async_trait;

use crate::error::AppError;
use crate::ports::StoreError;

/// A part of a use case to run in one transaction; its answer says whether to commit.
pub type TransactionWork<'a> = Pin<Box<dyn Future<Output = bool> + Send + 'a>>;

/// Runs parts of use cases in one transaction each.
#[async_trait]
pub trait Transactions: Send + Sync {
    /// Runs `work` with every store call it makes in one transaction, committed when it
    /// answers true and rolled back otherwise. Inside another `run` of the same task it
    /// joins that transaction, which the outer work then commits or rolls back.
    async fn run<'a>(&self, work: TransactionWork<'a>) -> Result<(), StoreError>;
}

/// Runs `work` in one transaction: committed when it succeeds, rolled back when it fails,
/// with its error as the answer.
pub async fn in_one_transaction<T, F>(transactions: &dyn Transactions, work: F) -> Result<T, AppError>
where
    T: Send,
    F: Future<Output = Result<T, AppError>> + Send,
{
    let mut answer = None;
    transactions
        .run(Box::pin(async {
            let result = work.await;
            let commit = result.is_ok();
            answer = Some(result);
            commit
        }))
        .await?;
    answer.unwrap_or_else(|| Err(AppError::Internal("the transaction ended before its work ran".into())))
}

/// Runs each part of a use case as it comes, without a transaction of its own: for use
/// cases over stores that have none (test doubles).
#[cfg(any(test, feature = "mock"))]
pub struct WithoutTransactions;

#[cfg(any(test, feature = "mock"))]
#[async_trait]
impl Transactions for WithoutTransactions {
    async fn run<'a>(&self, work: TransactionWork<'a>) -> Result<(), StoreError> {
        work.await;
        Ok(())
    }
}
