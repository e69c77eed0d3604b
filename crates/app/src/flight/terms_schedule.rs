//! Platform staff schedule an operator's next flight terms and cancel a scheduled version
//! before it takes effect. A version takes effect by its effective instant (a UTC period
//! boundary), found when terms are read: no job flips it, so none can be missed. A
//! version is never edited: a changed plan is a cancellation and a new version.

use opinion_core::{EventId, FlightTermsId, OperatorId};
use opinion_flight::{Terms, TermsVersion, check_schedule};
use opinion_webhook::EventType;
use serde_json::json;
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::model::{TermsCancellation, TermsRecord};
use crate::flight::terms::staff_name;
use crate::model::{NewEvent, rfc3339};

/// Most versions an operator may have scheduled at once.
pub const MAX_SCHEDULED_TERMS: usize = 3;

impl FlightGame {
    /// Schedules `terms` for the operator from `effective_from` (in the future, on a
    /// period boundary), with `mini_app.flight.terms.scheduled` in the same write.
    pub async fn schedule_terms(
        &self,
        operator: OperatorId,
        terms: Terms,
        effective_from: OffsetDateTime,
        by: &str,
    ) -> Result<TermsRecord, AppError> {
        let by = staff_name(by)?;
        let now = self.ports.clock.now();
        check_schedule(effective_from, now).map_err(|refusal| AppError::invalid("effectiveFrom", refusal))?;
        self.known_operator(operator).await?;
        let versions = self.ports.store.terms_versions(operator).await?;
        let scheduled = versions
            .iter()
            .filter(|record| record.cancelled.is_none() && record.version.effective_from > now)
            .count();
        if scheduled >= MAX_SCHEDULED_TERMS {
            return Err(AppError::Conflict {
                code: ProblemCode::TermsScheduleFull,
                detail: format!(
                    "the operator has {scheduled} scheduled terms versions, the most allowed; cancel one first"
                ),
            });
        }
        let record = TermsRecord {
            operator_id: operator,
            version: TermsVersion {
                id: FlightTermsId::from_ulid(self.ports.random.ulid()),
                effective_from,
                terms,
            },
            created_at: now,
            created_by: by.to_owned(),
            cancelled: None,
        };
        let event = self.terms_scheduled(&record, now);
        self.ports.store.schedule_terms(&record, &event).await?;
        tracing::info!(operator_id = %operator, terms_id = %record.version.id, effective_from = %rfc3339(effective_from), by, "flight terms scheduled");
        Ok(record)
    }

    /// Cancels the operator's scheduled version `id`; refused once it took effect or was
    /// cancelled (`terms_not_cancellable`), and for another operator's (`not_found`).
    pub async fn cancel_terms(
        &self,
        operator: OperatorId,
        id: FlightTermsId,
        by: &str,
    ) -> Result<TermsRecord, AppError> {
        let by = staff_name(by)?;
        let cancellation = TermsCancellation {
            at: self.ports.clock.now(),
            by: by.to_owned(),
        };
        let versions = self.ports.store.terms_versions(operator).await?;
        let Some(mut record) = versions.into_iter().find(|record| record.version.id == id) else {
            return Err(AppError::NotFound("terms version"));
        };
        if !self.ports.store.cancel_terms(operator, id, &cancellation).await? {
            return Err(AppError::Conflict {
                code: ProblemCode::TermsNotCancellable,
                detail: format!("terms version {id} took effect or was cancelled already"),
            });
        }
        tracing::info!(operator_id = %operator, terms_id = %id, by, "flight terms cancelled");
        record.cancelled = Some(cancellation);
        Ok(record)
    }

    /// `mini_app.flight.terms.scheduled`, with every term of the version.
    fn terms_scheduled(&self, record: &TermsRecord, at: OffsetDateTime) -> NewEvent {
        let terms = &record.version.terms;
        let limits = terms.limits();
        let data = json!({
            "termsId": record.version.id,
            "effectiveFrom": rfc3339(record.version.effective_from),
            "shareBps": terms.share_bps().get(),
            "minStake": limits.min_stake().to_string(),
            "maxStake": limits.max_stake().to_string(),
            "maxPayout": limits.max_payout().to_string(),
            "ticketsPerFlight": limits.tickets_per_flight(),
            "settlementPeriod": terms.period().as_str(),
            "paymentDueDays": terms.payment_due_days(),
            "currency": "IDR",
            "scheduledAt": rfc3339(at),
        });
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            record.operator_id,
            EventType::FlightTermsScheduled,
            data,
            at,
        )
    }
}
