//! The delivery workers: tasks that run the webhook use case's "deliver what is due now"
//! step in a loop, started with the HTTP server and stopped after it. Every worker of
//! every instance claims from the same database, so any number may run at once.

use std::time::Duration;

use opinion_app::webhooks::Webhooks;
use tokio::sync::watch;

use crate::loop_tasks::LoopTasks;

/// Deliveries one worker claims per step; attempted concurrently.
pub const CLAIM_BATCH: u32 = 8;

/// Running delivery workers.
pub struct WebhookWorkers {
    tasks: LoopTasks,
}

impl WebhookWorkers {
    /// Starts `count` workers (none when 0), each idling `poll` between empty steps.
    pub fn start(webhooks: &Webhooks, count: usize, poll: Duration) -> Self {
        let mut tasks = LoopTasks::new();
        for worker in 0..count {
            tasks.spawn(work(webhooks.clone(), worker, poll, tasks.stopped()));
        }
        if count > 0 {
            tracing::info!(
                workers = count,
                poll_ms = poll.as_millis() as u64,
                "webhook delivery workers started"
            );
        }
        Self { tasks }
    }

    /// Asks every worker to stop after its current step and waits for them. Attempts in
    /// flight finish and are recorded (each is bounded by its time limit).
    pub async fn stop(self) {
        self.tasks.stop("a webhook delivery worker").await;
    }
}

async fn work(webhooks: Webhooks, worker: usize, poll: Duration, mut stopped: watch::Receiver<bool>) {
    while !*stopped.borrow() {
        let busy = match webhooks.deliver_due(CLAIM_BATCH).await {
            Ok(round) => round.attempted + round.unrecorded > 0,
            Err(error) => {
                tracing::error!(worker, %error, "webhook delivery step failed");
                false
            }
        };
        if !busy {
            tokio::select! {
                _ = stopped.changed() => {}
                () = tokio::time::sleep(poll) => {}
            }
        }
    }
}
