//! The player session sweep's loop: every interval, `Players::end_expired_sessions` ends
//! the sessions that expired without a logout, each with `mini_app.session.expired`. Every
//! instance may sweep at once: a session is ended by whichever gets there first, once.

use std::time::Duration;

use opinion_app::players::Players;

use crate::loop_tasks::LoopTasks;

/// Sessions one pass ends at most; a pass that ends that many runs again at once.
pub const SWEEP_BATCH: u32 = 200;

/// A running sweep loop; `stop` ends it after its current pass.
pub struct SessionSweeper {
    tasks: LoopTasks,
}

impl SessionSweeper {
    /// Starts the loop on the current runtime.
    pub fn start(players: Players, interval: Duration) -> Self {
        let mut tasks = LoopTasks::new();
        let mut stopped = tasks.stopped();
        tasks.spawn(async move {
            loop {
                let full = match players.end_expired_sessions(SWEEP_BATCH).await {
                    Ok(ended) => ended == SWEEP_BATCH as usize,
                    Err(error) => {
                        tracing::error!(%error, "player session sweep failed");
                        false
                    }
                };
                if *stopped.borrow() {
                    break;
                }
                if full {
                    continue;
                }
                tokio::select! {
                    _ = tokio::time::sleep(interval) => {}
                    _ = stopped.changed() => break,
                }
            }
        });
        Self { tasks }
    }

    /// Asks the loop to stop and waits for its current pass to finish.
    pub async fn stop(self) {
        self.tasks.stop("the player session sweep").await;
    }
}
