//! The delivery workers' step: claim what is due now and attempt it. The binary runs it
//! in a loop on each worker; tests call it with a controlled clock. All state is in the
//! store, so a restarted service (or another instance) simply carries on.

use opinion_webhook::{AttemptTrigger, CLAIM_LEASE_SECS, DeliveryStatus};
use time::Duration;
use tokio::task::JoinSet;

use crate::error::AppError;
use crate::webhooks::Webhooks;
use crate::webhooks::store::Claim;

/// What one step of a delivery worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryRound {
    /// Attempts made and recorded.
    pub attempted: usize,
    /// Of which delivered.
    pub delivered: usize,
    /// Attempts made whose recording failed; their claims expire and they are tried again.
    pub unrecorded: usize,
}

impl Webhooks {
    /// Claims up to `limit` deliveries due now and attempts them concurrently, each within
    /// its own time limit, so one slow endpoint never holds up the others.
    pub async fn deliver_due(&self, limit: u32) -> Result<DeliveryRound, AppError> {
        let now = self.ports.clock.now();
        let claim = Claim {
            now,
            lease_until: now + Duration::seconds(CLAIM_LEASE_SECS),
            token: self.ports.random.ulid().0,
            limit,
        };
        let targets = self.ports.store.claim_due_deliveries(&claim).await?;
        let mut attempts = JoinSet::new();
        for target in targets {
            let webhooks = self.clone();
            attempts.spawn(async move {
                webhooks
                    .attempt(&target, AttemptTrigger::Scheduled, Some(claim.token))
                    .await
            });
        }
        let mut round = DeliveryRound::default();
        while let Some(joined) = attempts.join_next().await {
            match joined {
                Ok(Ok(report)) => {
                    round.attempted += 1;
                    if matches!(report.delivery, Some((DeliveryStatus::Delivered, _))) {
                        round.delivered += 1;
                    }
                }
                Ok(Err(error)) => {
                    round.unrecorded += 1;
                    tracing::error!(%error, "a webhook attempt could not be recorded; it is retried when its claim expires");
                }
                Err(error) => {
                    round.unrecorded += 1;
                    tracing::error!(%error, "a webhook attempt task failed");
                }
            }
        }
        Ok(round)
    }
}
