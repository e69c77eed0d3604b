//! One attempt at a delivery, the same for the workers' scheduled attempts and the
//! operators' replays: build the envelope, sign it afresh, send it once within the
//! endpoint's time limit, decide what follows (the domain's `plan_after_attempt`, with the
//! endpoint's number of attempts), and record it all in one transaction.

use opinion_core::{EventId, OperatorId};
use opinion_webhook::{
    AttemptFacts, AttemptTrigger, CreatedAt, DeliveryStatus, DeliveryStep, Envelope, MAX_PAYLOAD_BYTES, sign,
};
use time::{Duration, OffsetDateTime};
use tracing::Instrument;

use crate::error::AppError;
use crate::model::{AttemptRecord, AttemptReport, AttemptRequest, AttemptTarget, EndpointDisabling, StoredEvent};
use crate::webhooks::endpoints::disabled_event;
use crate::webhooks::transport::{OutboundRequest, TransportResponse};
use crate::webhooks::{Webhooks, rfc3339, status_error};

impl Webhooks {
    /// Makes one attempt at `target` and records it; `lease` is the worker's claim for a
    /// scheduled attempt. Returns what was recorded.
    pub(crate) async fn attempt(
        &self,
        target: &AttemptTarget,
        trigger: AttemptTrigger,
        lease: Option<u128>,
    ) -> Result<AttemptReport, AppError> {
        let span = tracing::info_span!(
            "webhook_attempt",
            operator_id = %target.operator_id,
            webhook_delivery_id = %target.delivery_id,
            webhook_endpoint_id = %target.endpoint_id,
            event_id = %target.event.id,
            trigger = %trigger,
        );
        async {
            let report = self.attempt_and_plan(target, trigger, lease).await?;
            self.ports.store.record_attempt(&report).await?;
            tracing::info!(
                status_code = ?report.attempt.status_code,
                duration_ms = report.attempt.duration_ms,
                outcome = ?report.delivery.map(|(status, _)| status),
                disabled = ?report.disable.as_ref().map(|d| d.reason),
                "webhook attempt recorded"
            );
            Ok(report)
        }
        .instrument(span)
        .await
    }

    async fn attempt_and_plan(
        &self,
        target: &AttemptTarget,
        trigger: AttemptTrigger,
        lease: Option<u128>,
    ) -> Result<AttemptReport, AppError> {
        let started = self.ports.clock.now();
        let body = envelope_body(&target.event, target.operator_id)?;
        let mut report = AttemptReport {
            operator_id: target.operator_id,
            delivery_id: target.delivery_id,
            endpoint_id: target.endpoint_id,
            lease,
            attempt: AttemptRecord {
                number: 0,
                trigger,
                started_at: started,
                duration_ms: 0,
                request: None,
                status_code: None,
                error: None,
                response_body: None,
                next_attempt_at: None,
            },
            delivery: None,
            failing_since: target.failing_since,
            disable: None,
        };
        if body.len() > MAX_PAYLOAD_BYTES {
            report.attempt.error = Some(format!(
                "payload_too_large: the envelope is {} bytes, more than the {MAX_PAYLOAD_BYTES} allowed",
                body.len()
            ));
            report.delivery = Some((DeliveryStatus::Failed, None));
            return Ok(report);
        }
        let headers = sign(
            &target.secrets.active_at(started),
            &target.event.id.to_string(),
            started.unix_timestamp(),
            &body,
        )
        .map_err(|e| AppError::Internal(e.to_string()))?;
        report.attempt.request = Some(AttemptRequest {
            url: target.url.clone(),
            headers: headers.clone(),
        });
        let request = OutboundRequest {
            url: target.url.clone(),
            headers,
            body,
            timeout: std::time::Duration::from_secs(u64::from(target.timeout.secs())),
        };
        let response = self.ports.transport.send(&request).await;
        let finished = self.ports.clock.now();
        self.apply_plan(&mut report, target, response, finished)?;
        Ok(report)
    }

    fn apply_plan(
        &self,
        report: &mut AttemptReport,
        target: &AttemptTarget,
        response: TransportResponse,
        finished: OffsetDateTime,
    ) -> Result<(), AppError> {
        let scheduled = report.attempt.trigger == AttemptTrigger::Scheduled;
        let plan = opinion_webhook::plan_after_attempt(AttemptFacts {
            result: response.result,
            retry_after_secs: response.retry_after_secs,
            trigger: report.attempt.trigger,
            scheduled_attempts: target.scheduled_attempts + u32::from(scheduled),
            max_attempts: target.max_attempts,
            failing_since_secs: target.failing_since.map(OffsetDateTime::unix_timestamp),
            now_secs: finished.unix_timestamp(),
            jitter: self.jitter(),
        });
        let next_attempt_at = match plan.step {
            DeliveryStep::RetryIn(secs) => Some(finished + Duration::seconds(i64::try_from(secs).unwrap_or(i64::MAX))),
            _ => None,
        };
        report.delivery = match plan.step {
            DeliveryStep::Delivered => Some((DeliveryStatus::Delivered, None)),
            DeliveryStep::RetryIn(_) => Some((DeliveryStatus::Pending, next_attempt_at)),
            DeliveryStep::DeadLetter => Some((DeliveryStatus::DeadLetter, None)),
            DeliveryStep::GiveUp => Some((DeliveryStatus::Failed, None)),
            DeliveryStep::Unchanged => None,
        };
        report.failing_since = plan
            .failing_since_secs
            .map(|_| target.failing_since.unwrap_or(finished));
        report.attempt.duration_ms = u32::try_from(response.elapsed.as_millis()).unwrap_or(u32::MAX);
        report.attempt.status_code = match response.result {
            opinion_webhook::AttemptResult::Status(code) => Some(code),
            _ => None,
        };
        report.attempt.error = response.error.or_else(|| status_error(response.result));
        report.attempt.response_body = response.body;
        report.attempt.next_attempt_at = next_attempt_at;
        report.disable = plan
            .disable
            .map(|reason| {
                let event = disabled_event(
                    EventId::from_ulid(self.ports.random.ulid()),
                    target.operator_id,
                    (target.endpoint_id, &target.url),
                    reason,
                    report.failing_since,
                    finished,
                )?;
                Ok::<_, AppError>(EndpointDisabling {
                    reason,
                    at: finished,
                    event,
                })
            })
            .transpose()?;
        Ok(())
    }
}

/// The exact bytes every attempt at a delivery of `event` sends: its envelope, as JSON.
pub(crate) fn envelope_body(event: &StoredEvent, operator_id: OperatorId) -> Result<Vec<u8>, AppError> {
    let created_at: CreatedAt = rfc3339(event.created_at)?
        .parse()
        .map_err(|e: opinion_webhook::CreatedAtError| AppError::Internal(e.to_string()))?;
    let envelope = Envelope {
        id: event.id,
        event_type: event.event_type,
        created_at,
        operator_id,
        data: event.data.clone(),
    };
    serde_json::to_vec(&envelope).map_err(|e| AppError::Internal(format!("cannot serialise an envelope: {e}")))
}
