//! The delivery log and replays.

use opinion_core::{Page, PageRequest, WebhookDeliveryId, WebhookDeliveryKind};
use opinion_webhook::AttemptTrigger;

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::model::{DeliveryDetail, DeliveryFilter, DeliveryRecord};
use crate::webhooks::Webhooks;
use crate::webhooks::attempt::envelope_body;

impl Webhooks {
    /// One page of the caller's operator's deliveries matching `filter`, with their attempts.
    pub async fn list_deliveries(
        &self,
        caller: &Principal,
        filter: DeliveryFilter,
        page: PageRequest<WebhookDeliveryKind>,
    ) -> Result<Page<DeliveryRecord, WebhookDeliveryKind>, AppError> {
        if let (Some(from), Some(before)) = (filter.created_from, filter.created_before)
            && before <= from
        {
            return Err(AppError::invalid("createdBefore", "must be later than `createdFrom`"));
        }
        Ok(self
            .ports
            .store
            .list_deliveries(caller.operator_id, &filter, page)
            .await?)
    }

    /// One of the caller's operator's deliveries with its attempts and the exact body each
    /// of them sends (its event's envelope, rebuilt from the event kept once).
    pub async fn delivery(&self, caller: &Principal, id: WebhookDeliveryId) -> Result<DeliveryDetail, AppError> {
        let delivery = self
            .ports
            .store
            .find_delivery(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("webhook delivery"))?;
        let event = self
            .ports
            .store
            .find_event(caller.operator_id, delivery.event_id)
            .await?
            .ok_or_else(|| AppError::Internal(format!("delivery {id} has no event")))?;
        let body = String::from_utf8(envelope_body(&event, caller.operator_id)?)
            .map_err(|e| AppError::Internal(format!("an envelope is not UTF-8: {e}")))?;
        Ok(DeliveryDetail { delivery, body })
    }

    /// Sends a delivery again now as a manual attempt, signed afresh, and returns it with
    /// the new attempt. The endpoint must be enabled; its rate limit applies.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id, webhook_delivery_id = %id))]
    pub async fn replay_delivery(&self, caller: &Principal, id: WebhookDeliveryId) -> Result<DeliveryRecord, AppError> {
        let replay = self
            .ports
            .store
            .find_replay_target(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("webhook delivery"))?;
        if !replay.endpoint_active {
            return Err(AppError::Conflict {
                code: ProblemCode::WebhookEndpointDisabled,
                detail: "the delivery's endpoint is disabled or deleted; enable it before replaying".into(),
            });
        }
        if let Some(limit) = replay.rate_limit {
            let now = self.ports.clock.now();
            let reserved = self
                .ports
                .store
                .reserve_send_slot(
                    caller.operator_id,
                    replay.target.endpoint_id,
                    now,
                    limit.spacing_micros(),
                )
                .await?;
            if let Some(opens_at) = reserved {
                let wait = (opens_at - now).whole_seconds().max(0) + 1;
                return Err(AppError::RateLimited {
                    retry_after_secs: u64::try_from(wait).unwrap_or(1),
                });
            }
        }
        self.attempt(&replay.target, AttemptTrigger::Manual, None).await?;
        tracing::info!(actor = %caller.actor_id(), "webhook delivery replayed");
        self.ports
            .store
            .find_delivery(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("webhook delivery"))
    }
}
