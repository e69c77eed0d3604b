//! The delivery workers: tasks that keep a pipeline of webhook attempts in flight,
//! claiming again whenever an attempt frees a slot, started with the HTTP server and
//! stopped after it. Every worker of every instance claims from the same database, so
//! any number may run at once.

use std::time::Duration;

use opinion_app::webhooks::{DeliveryPipeline, Webhooks};
use tokio::sync::watch;

use crate::loop_tasks::LoopTasks;

/// Attempts one worker keeps in flight at most.
pub const SLOTS: usize = 8;

/// Running delivery workers.
pub struct WebhookWorkers {
    tasks: LoopTasks,
}

impl WebhookWorkers {
    /// Starts `count` workers (none when 0), each looking for due deliveries every `poll`
    /// while it has a free slot, and at once when an attempt ends.
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

    /// Asks every worker to stop claiming and waits for them. Attempts in flight finish
    /// and are recorded (each is bounded by its time limit).
    pub async fn stop(self) {
        self.tasks.stop("a webhook delivery worker").await;
    }
}

async fn work(webhooks: Webhooks, worker: usize, poll: Duration, mut stopped: watch::Receiver<bool>) {
    let mut pipeline = DeliveryPipeline::new(webhooks, SLOTS);
    while !*stopped.borrow() {
        if let Err(error) = pipeline.fill().await {
            tracing::error!(worker, %error, "claiming due webhook deliveries failed");
        }
        let full = pipeline.free() == 0;
        tokio::select! {
            Some(_) = pipeline.next_finished(), if pipeline.in_flight() > 0 => {}
            () = tokio::time::sleep(poll), if !full => {}
            _ = stopped.changed() => {}
        }
    }
    while pipeline.next_finished().await.is_some() {}
}
