//! The delivery workers' work: claim what is due now and attempt it. A worker keeps a
//! [`DeliveryPipeline`] of attempts in flight and claims again for each slot an attempt
//! frees, so one slow endpoint holds up only its own slot; tests call
//! [`Webhooks::deliver_due`] for one claim-and-attempt step with a controlled clock. All
//! state is in the store, so a restarted service (or another instance) simply carries on.

use opinion_webhook::{AttemptTrigger, CLAIM_LEASE_SECS, DeliveryStatus};
use time::Duration;
use tokio::task::JoinSet;

use crate::error::AppError;
use crate::model::AttemptReport;
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

impl DeliveryRound {
    fn count(&mut self, finished: Finished) {
        match finished {
            Finished::Delivered => {
                self.attempted += 1;
                self.delivered += 1;
            }
            Finished::Attempted => self.attempted += 1,
            Finished::Unrecorded => self.unrecorded += 1,
        }
    }
}

/// How one attempt of a pipeline ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    /// Made, recorded, and the endpoint took the event.
    Delivered,
    /// Made and recorded; the delivery failed or is retried later.
    Attempted,
    /// Made (or not) but not recorded; its claim expires and it is tried again.
    Unrecorded,
}

/// Up to `slots` attempts in flight at once, each within its own time limit. Dropping
/// the pipeline aborts the attempts in flight; their claims expire and they are tried
/// again.
pub struct DeliveryPipeline {
    webhooks: Webhooks,
    slots: usize,
    in_flight: JoinSet<Result<AttemptReport, AppError>>,
}

impl DeliveryPipeline {
    /// An empty pipeline of `slots` slots.
    pub fn new(webhooks: Webhooks, slots: usize) -> Self {
        Self {
            webhooks,
            slots,
            in_flight: JoinSet::new(),
        }
    }

    /// Attempts in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Slots no attempt holds.
    pub fn free(&self) -> usize {
        self.slots.saturating_sub(self.in_flight.len())
    }

    /// Claims deliveries due now for the free slots and starts their attempts; how many
    /// started (fewer than the free slots when fewer are due).
    pub async fn fill(&mut self) -> Result<usize, AppError> {
        let free = self.free();
        if free == 0 {
            return Ok(0);
        }
        let now = self.webhooks.ports.clock.now();
        let claim = Claim {
            now,
            lease_until: now + Duration::seconds(CLAIM_LEASE_SECS),
            token: self.webhooks.ports.random.ulid().0,
            limit: u32::try_from(free).unwrap_or(u32::MAX),
        };
        let targets = self.webhooks.ports.store.claim_due_deliveries(&claim).await?;
        let started = targets.len();
        for target in targets {
            let webhooks = self.webhooks.clone();
            self.in_flight.spawn(async move {
                webhooks
                    .attempt(&target, AttemptTrigger::Scheduled, Some(claim.token))
                    .await
            });
        }
        Ok(started)
    }

    /// Waits for the next attempt in flight to end; `None` when none is in flight.
    pub async fn next_finished(&mut self) -> Option<Finished> {
        let joined = self.in_flight.join_next().await?;
        Some(match joined {
            Ok(Ok(report)) if matches!(report.delivery, Some((DeliveryStatus::Delivered, _))) => Finished::Delivered,
            Ok(Ok(_)) => Finished::Attempted,
            Ok(Err(error)) => {
                tracing::error!(%error, "a webhook attempt could not be recorded; it is retried when its claim expires");
                Finished::Unrecorded
            }
            Err(error) => {
                tracing::error!(%error, "a webhook attempt task failed");
                Finished::Unrecorded
            }
        })
    }
}

impl Webhooks {
    /// Claims up to `limit` deliveries due now, attempts them concurrently and waits for
    /// every one: one step, for tests and tools that drive delivery themselves.
    pub async fn deliver_due(&self, limit: u32) -> Result<DeliveryRound, AppError> {
        let slots = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut pipeline = DeliveryPipeline::new(self.clone(), slots);
        pipeline.fill().await?;
        let mut round = DeliveryRound::default();
        while let Some(finished) = pipeline.next_finished().await {
            round.count(finished);
        }
        Ok(round)
    }
}
