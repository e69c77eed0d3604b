//! The delivery workers: tasks that keep a pipeline of webhook attempts in flight,
//! claiming again as attempts free slots, started with the HTTP server and stopped
//! after it. Every worker of every instance claims from the same database, so
//! any number may run at once.

use std::time::Duration;

use opinion_app::webhooks::{ClaimPacing, DeliveryPipeline, Webhooks};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::loop_tasks::LoopTasks;

/// Attempts one worker keeps in flight at most: twice what one endpoint may hold, so an
/// endpoint at its cap leaves the worker free slots for the others.
pub const SLOTS: usize = 2 * opinion_webhook::MAX_IN_FLIGHT_PER_ENDPOINT as usize;

/// Free slots that make a worker claim at once, without waiting for its claim pacing: a
/// claim is a transaction with a scan of what is due, so under a stream of deliveries
/// one claim fills several slots instead of one claim per attempt that ends.
const CLAIM_BATCH: usize = SLOTS / 4;

/// Running delivery workers.
pub struct WebhookWorkers {
    tasks: LoopTasks,
}

impl WebhookWorkers {
    /// Starts `count` workers (none when 0), each looking for due deliveries at once when
    /// it has nothing in flight or [`CLAIM_BATCH`] free slots, and otherwise, while it has
    /// a free slot, paced by [`ClaimPacing`]: briskly while claims find work, at most every
    /// `poll` while they find none, each worker at its own share of the waits (`Cadence`).
    pub fn start(webhooks: &Webhooks, count: usize, poll: Duration) -> Self {
        let mut tasks = LoopTasks::new();
        for worker in 0..count {
            let cadence = Cadence::of(worker, count, poll);
            tasks.spawn(work(webhooks.clone(), worker, cadence, tasks.stopped()));
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

/// When one worker of several looks for due deliveries, so that idle workers look in
/// turn rather than together, also after a burst that woke them all at once.
#[derive(Debug, Clone, Copy)]
struct Cadence {
    poll: Duration,
    /// How long after the start the worker first looks: spread over one poll interval.
    offset: Duration,
    /// The share of its pacing's waits the worker waits: from a half for the first worker
    /// to nearly the whole for the last, so their waits drift apart.
    spread: f64,
}

impl Cadence {
    fn of(worker: usize, count: usize, poll: Duration) -> Self {
        Self {
            poll,
            offset: poll.mul_f64(worker as f64 / count as f64),
            spread: (count + worker) as f64 / (2 * count) as f64,
        }
    }
}

async fn work(webhooks: Webhooks, worker: usize, cadence: Cadence, mut stopped: watch::Receiver<bool>) {
    tokio::select! {
        () = tokio::time::sleep(cadence.offset) => {}
        _ = stopped.changed() => return,
    }
    let mut pipeline = DeliveryPipeline::new(webhooks, SLOTS);
    let mut pacing = ClaimPacing::new(cadence.poll);
    let mut next_claim = Instant::now();
    while !*stopped.borrow() {
        let free = pipeline.free();
        let due = free >= CLAIM_BATCH || pipeline.in_flight() == 0 || Instant::now() >= next_claim;
        if free > 0 && due {
            let found = pipeline.fill().await.unwrap_or_else(|error| {
                tracing::error!(worker, %error, "claiming due webhook deliveries failed");
                0
            });
            next_claim = Instant::now() + pacing.after_claim(found).mul_f64(cadence.spread);
        }
        let full = pipeline.free() == 0;
        tokio::select! {
            Some(_) = pipeline.next_finished(), if pipeline.in_flight() > 0 => {}
            () = tokio::time::sleep_until(next_claim), if !full => {}
            _ = stopped.changed() => {}
        }
    }
    while pipeline.next_finished().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_start_in_turn_and_wait_their_own_share() {
        let poll = Duration::from_secs(1);
        let cadences: Vec<Cadence> = (0..4).map(|worker| Cadence::of(worker, 4, poll)).collect();
        let offsets: Vec<u128> = cadences.iter().map(|c| c.offset.as_millis()).collect();
        assert_eq!(offsets, [0, 250, 500, 750]);
        let spreads: Vec<f64> = cadences.iter().map(|c| c.spread).collect();
        assert_eq!(spreads, [0.5, 0.625, 0.75, 0.875]);
        assert!(cadences.iter().all(|c| c.poll == poll));
    }
}
