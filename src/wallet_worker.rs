//! The wallet worker's loop: runs `MarketSettlement::run_wallet_pass` every interval beside the
//! HTTP server until told to stop. Several instances may run at once (claims skip what
//! another holds).

use std::time::Duration;

use opinion_app::opinion::settlement::MarketSettlement;

use crate::loop_tasks::LoopTasks;

/// A running worker loop; `stop` ends it after its current pass.
pub struct WalletWorker {
    tasks: LoopTasks,
}

impl WalletWorker {
    /// Starts the loop on the current runtime.
    pub fn start(settlement: MarketSettlement, interval: Duration) -> Self {
        let mut tasks = LoopTasks::new();
        let mut stopped = tasks.stopped();
        tasks.spawn(async move {
            loop {
                match settlement.run_wallet_pass().await {
                    Ok(pass) if pass.sent + pass.recovered > 0 => {
                        tracing::info!(sent = pass.sent, recovered = pass.recovered, "wallet worker pass");
                    }
                    Ok(_) => {}
                    Err(error) => tracing::error!(%error, "wallet worker pass failed"),
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
        self.tasks.stop("the wallet worker").await;
    }
}
