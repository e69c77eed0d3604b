//! The background loops of one instance as a group that stops when asked and dies with
//! its owner: `stop` lets every loop finish its current step, while dropping the group
//! (the instance's `run` future dropped, as when its task is aborted) aborts them at
//! once, so no loop of a dead instance keeps driving flights or sending money.

use std::future::Future;

use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Loops spawned on the current runtime, sharing one stop signal.
pub struct LoopTasks {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl LoopTasks {
    /// An empty group.
    pub fn new() -> Self {
        Self {
            stop: watch::channel(false).0,
            tasks: Vec::new(),
        }
    }

    /// The stop signal a loop watches: `true` once `stop` was called.
    pub fn stopped(&self) -> watch::Receiver<bool> {
        self.stop.subscribe()
    }

    /// Spawns `task` into the group.
    pub fn spawn(&mut self, task: impl Future<Output = ()> + Send + 'static) {
        self.tasks.push(tokio::spawn(task));
    }

    /// Asks every loop to stop after its current step and waits for them; `what` names
    /// the loops in the log of one that ended abnormally.
    pub async fn stop(mut self, what: &str) {
        self.stop.send_replace(true);
        for task in std::mem::take(&mut self.tasks) {
            if let Err(error) = task.await {
                tracing::error!(%error, "{what} ended abnormally");
            }
        }
    }
}

impl Default for LoopTasks {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for LoopTasks {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}
