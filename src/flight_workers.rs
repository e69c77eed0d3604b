//! The flight product's background loops beside the HTTP server: the driver (only the
//! instance holding the driver lock plays flights; the others wait to take over) and the
//! money worker (every instance; claims skip what another holds).

use std::sync::Arc;
use std::time::Duration;

use opinion_app::flight::FlightGame;
use opinion_app::flight::ports::DriverLock;
use tokio::sync::watch;

use crate::loop_tasks::LoopTasks;

/// How often an instance that is not the driver tries to become it: a dead driver's
/// lock is free as soon as its database session ends, so take-over comes within this.
const TAKE_OVER_INTERVAL: Duration = Duration::from_secs(1);

/// The flight loops of one instance; `stop` ends them after their current step, and
/// dropping them aborts them (the driver's lease goes with its loop).
pub struct FlightWorkers {
    tasks: LoopTasks,
}

impl FlightWorkers {
    /// Starts the driver loop, and the money worker when it has an interval, on the
    /// current runtime.
    pub fn start(
        game: FlightGame,
        lock: Arc<dyn DriverLock>,
        tick: Duration,
        money_interval: Option<Duration>,
    ) -> Self {
        let mut tasks = LoopTasks::new();
        tasks.spawn(drive(game.clone(), lock, tick, tasks.stopped()));
        if let Some(interval) = money_interval {
            tasks.spawn(pay(game, interval, tasks.stopped()));
        }
        Self { tasks }
    }

    /// Asks the loops to stop and waits for them (the driver lock is released).
    pub async fn stop(self) {
        self.tasks.stop("a flight loop").await;
    }
}

/// Tries to become the driver; while it is, steps the game until the lease is lost.
async fn drive(game: FlightGame, lock: Arc<dyn DriverLock>, tick: Duration, mut stopped: watch::Receiver<bool>) {
    loop {
        match lock.try_acquire().await {
            Ok(Some(mut lease)) => {
                tracing::info!("this instance drives the flights");
                let mut taking_over = true;
                loop {
                    if !lease.still_held().await {
                        tracing::warn!("the driver lock was lost; another instance takes over");
                        break;
                    }
                    let pause = match game.drive(taking_over).await {
                        Ok(step) => {
                            taking_over = taking_over && step.continues();
                            step.next_in.min(tick)
                        }
                        Err(error) => {
                            tracing::error!(%error, "a driver step failed");
                            tick
                        }
                    };
                    if sleep_or_stop(pause, &mut stopped).await {
                        return;
                    }
                }
            }
            Ok(None) => {}
            Err(error) => tracing::error!(%error, "trying the driver lock failed"),
        }
        if sleep_or_stop(TAKE_OVER_INTERVAL, &mut stopped).await {
            return;
        }
    }
}

/// Sends due payouts and refunds and recovers lost answers every interval.
async fn pay(game: FlightGame, interval: Duration, mut stopped: watch::Receiver<bool>) {
    loop {
        match game.run_money_pass().await {
            Ok(pass) if pass.sent + pass.recovered > 0 => {
                tracing::info!(sent = pass.sent, recovered = pass.recovered, "flight money pass");
            }
            Ok(_) => {}
            Err(error) => tracing::error!(%error, "flight money pass failed"),
        }
        if sleep_or_stop(interval, &mut stopped).await {
            return;
        }
    }
}

/// Sleeps `pause`; `true` when told to stop meanwhile.
async fn sleep_or_stop(pause: Duration, stopped: &mut watch::Receiver<bool>) -> bool {
    tokio::select! {
        _ = tokio::time::sleep(pause) => *stopped.borrow(),
        _ = stopped.changed() => true,
    }
}
