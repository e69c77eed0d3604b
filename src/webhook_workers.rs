//! The delivery workers: tasks that keep a pipeline of webhook attempts in flight,
//! claiming again whenever an attempt frees a slot, started with the HTTP server and
//! stopped after it. Every worker of every instance claims from the same database, so
//! any number may run at once.

use std::time::Duration;

use opinion_app::webhooks::{ClaimPacing, DeliveryPipeline, Webhooks};
use tokio::sync::watch;

use crate::loop_tasks::LoopTasks;

/// Attempts one worker keeps in flight at most: more than one endpoint may hold, so an
/// endpoint at its cap leaves the worker free slots for the others.
pub const SLOTS: usize = 2 * opinion_webhook::MAX_IN_FLIGHT_PER_ENDPOINT as usize;

/// Running delivery workers.
pub struct WebhookWorkers {
    tasks: LoopTasks,
}

impl WebhookWorkers {
    /// Starts `count` workers (none when 0), each looking for due deliveries at once when
    /// an attempt ends and, while it has a free slot, paced by [`ClaimPacing`]: briskly
    /// while claims find work, every `poll` while they find none.
    pub fn start(webhooks: &Webhooks, count: usize, poll: Duration) -> Self {
        let mut tasks = LoopTasks::new();
        for worker in 0..count {
            // Staggered over one poll interval, so idle workers look in turn, not together.
            let offset = poll.mul_f64(worker as f64 / count as f64);
            tasks.spawn(work(webhooks.clone(), worker, poll, offset, tasks.stopped()));
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

    /// Asks every worker to stop claiming and waits for them. Attempts in flight finish
    /// and are recorded (each is bounded by its time limit).
    pub async fn stop(self) {
        self.tasks.stop("a webhook delivery worker").await;
    }
}

async fn work(
    webhooks: Webhooks,
    worker: usize,
    poll: Duration,
    offset: Duration,
    mut stopped: watch::Receiver<bool>,
) {
    tokio::select! {
        () = tokio::time::sleep(offset) => {}
        _ = stopped.changed() => return,
    }
    let mut pipeline = DeliveryPipeline::new(webhooks, SLOTS);
    let mut pacing = ClaimPacing::new(poll);
    while !*stopped.borrow() {
        let mut wait = poll;
        if pipeline.free() > 0 {
            let found = pipeline.fill().await.unwrap_or_else(|error| {
                tracing::error!(worker, %error, "claiming due webhook deliveries failed");
                0
            });
            wait = pacing.after_claim(found);
        }
        let full = pipeline.free() == 0;
        tokio::select! {
            Some(_) = pipeline.next_finished(), if pipeline.in_flight() > 0 => {}
            () = tokio::time::sleep(wait), if !full => {}
            _ = stopped.changed() => {}
        }
    }
    while pipeline.next_finished().await.is_some() {}
}
