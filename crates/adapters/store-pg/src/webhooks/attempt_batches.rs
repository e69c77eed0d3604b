//! Attempts recorded together: the delivery workers' store queues each finished attempt,
//! and a few writers take what is queued, up to [`MAX_BATCH`] at a time, and record it in
//! one transaction, its statements pipelined ([`record`], one per attempt, as alone). An
//! attempt that arrives while the writers are idle is recorded at once, alone; under load
//! the queue fills while the writers commit, so one commit and one round trip carry many
//! attempts. Each attempt's caller waits for its own answer, given after the commit.
//!
//! A batch is all or nothing: when a statement fails, nothing of the batch is written and
//! every attempt in it is answered with the failure, so each is sent again once its claim
//! expires (delivery stays at least once). An attempt whose delivery is gone is answered
//! `NotFound`, as alone, without failing the others. A batch writes in the order of its
//! endpoints, so two batches changing the same endpoints' failure streaks lock them in the
//! same order.

use std::sync::Arc;

use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection};
use futures_util::future::join_all;
use opinion_app::model::AttemptReport;
use opinion_app::ports::StoreError;
use tokio::sync::{Mutex, mpsc, oneshot};

use crate::db::error::{from_diesel, unavailable};
use crate::db::pool::PgStore;
use crate::webhooks::attempts::record;

/// Attempts one transaction records at most: enough that a commit carries a worker's
/// burst, few enough that the pipeline sends them in order (`join_all` polls a list of up
/// to 30 in order).
const MAX_BATCH: usize = 24;

/// Transactions recording attempts at once, per store.
const WRITERS: usize = 4;

/// One attempt waiting to be recorded, and where its answer goes.
struct Queued {
    report: AttemptReport,
    answer: oneshot::Sender<Result<(), StoreError>>,
}

/// The queue a store's attempts wait in to be recorded together. Its writers stop once
/// every store holding the queue has gone and the queue is empty.
#[derive(Clone)]
pub(crate) struct AttemptBatches {
    queue: mpsc::UnboundedSender<Queued>,
}

impl AttemptBatches {
    /// Starts the writers, on the running Tokio runtime, recording over `store` (a store
    /// that records each attempt alone, so the writers never queue to themselves).
    pub(crate) fn start(store: PgStore) -> Self {
        let (queue, queued) = mpsc::unbounded_channel();
        let queued = Arc::new(Mutex::new(queued));
        for _ in 0..WRITERS {
            tokio::spawn(write(store.clone(), queued.clone()));
        }
        Self { queue }
    }

    /// Records `report` with whatever else is queued, once its batch commits.
    pub(crate) async fn record(&self, report: &AttemptReport) -> Result<(), StoreError> {
        let (answer, answered) = oneshot::channel();
        let queued = Queued {
            report: report.clone(),
            answer,
        };
        self.queue.send(queued).map_err(|_| stopped())?;
        answered.await.map_err(|_| stopped())?
    }
}

/// One writer: takes up to [`MAX_BATCH`] queued attempts, records them in one
/// transaction, answers each, and goes back for more until the queue closes.
async fn write(store: PgStore, queued: Arc<Mutex<mpsc::UnboundedReceiver<Queued>>>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    loop {
        if queued.lock().await.recv_many(&mut batch, MAX_BATCH).await == 0 {
            return;
        }
        batch.sort_by_key(|queued: &Queued| (queued.report.endpoint_id, queued.report.delivery_id));
        let reports: Vec<&AttemptReport> = batch.iter().map(|queued| &queued.report).collect();
        let answers = store.record_together(&reports).await;
        for (queued, answer) in batch.drain(..).zip(answers) {
            // A caller that stopped waiting (its task aborted) needs no answer.
            let _ = queued.answer.send(answer);
        }
    }
}

impl PgStore {
    /// Records `reports` in one transaction, pipelined in their order; one answer per
    /// report, in the same order.
    async fn record_together(&self, reports: &[&AttemptReport]) -> Vec<Result<(), StoreError>> {
        match self.record_all_or_nothing(reports).await {
            Ok(found) => found
                .into_iter()
                .map(|found| {
                    if found {
                        Ok(())
                    } else {
                        Err(from_diesel(DieselError::NotFound))
                    }
                })
                .collect(),
            Err(failure) => {
                tracing::error!(error = %failure, attempts = reports.len(), "a batch of webhook attempts could not be recorded; each is sent again when its claim expires");
                reports.iter().map(|_| Err(each_of(&failure))).collect()
            }
        }
    }

    /// Whether each report's delivery was found (and its attempt recorded), all
    /// committed together, or the first failure with nothing written.
    async fn record_all_or_nothing(&self, reports: &[&AttemptReport]) -> Result<Vec<bool>, StoreError> {
        let mut conn = self.pooled().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            let conn: &AsyncPgConnection = conn;
            let recorded = join_all(reports.iter().map(|report| found(conn, report))).await;
            recorded.into_iter().collect()
        })
        .await
        .map_err(from_diesel)
    }
}

/// Records `report`: `false` when its delivery does not exist (nothing written, and the
/// transaction goes on).
async fn found(conn: &AsyncPgConnection, report: &AttemptReport) -> Result<bool, DieselError> {
    match record(conn, report).await {
        Ok(()) => Ok(true),
        Err(DieselError::NotFound) => Ok(false),
        Err(failure) => Err(failure),
    }
}

/// The answer each attempt of a failed batch gets: the batch's failure.
fn each_of(failure: &StoreError) -> StoreError {
    match failure {
        StoreError::TimedOut(limit) => StoreError::TimedOut(*limit),
        other => StoreError::Unavailable(other.to_string()),
    }
}

/// The answer when the writers are gone (the runtime they ran on has shut down).
fn stopped() -> StoreError {
    unavailable("cannot record the webhook attempt", &"the attempt writers have stopped")
}
