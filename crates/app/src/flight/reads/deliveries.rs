//! `GET /flight/webhook-deliveries`: the delivery evidence of the operator's
//! `mini_app.flight.*` events, the same deliveries (with their attempts) as the delivery
//! log shows, restricted to the flight product's event types.

use opinion_core::{OperatorId, Page, PageRequest, WebhookDeliveryKind};
use opinion_webhook::EventType;

use crate::error::AppError;
use crate::flight::reads::FlightReads;
use crate::model::{DeliveryFilter, DeliveryRecord};

impl FlightReads {
    /// One page of the operator's deliveries of flight events matching `filter`, newest
    /// first. An `eventType` filter must name a flight event.
    pub async fn list_webhook_deliveries(
        &self,
        operator: OperatorId,
        filter: DeliveryFilter,
        page: PageRequest<WebhookDeliveryKind>,
    ) -> Result<Page<DeliveryRecord, WebhookDeliveryKind>, AppError> {
        if filter.event_type.is_some_and(|event_type| !event_type.is_flight()) {
            return Err(AppError::invalid(
                "eventType",
                "must be a flight event type (mini_app.flight.*)",
            ));
        }
        if let (Some(from), Some(before)) = (filter.created_from, filter.created_before)
            && before <= from
        {
            return Err(AppError::invalid("createdBefore", "must be later than `createdFrom`"));
        }
        let flight = DeliveryFilter {
            event_types: Some(
                EventType::ALL
                    .into_iter()
                    .filter(|event_type| event_type.is_flight())
                    .collect(),
            ),
            ..filter
        };
        Ok(self.ports.webhooks.list_deliveries(operator, &flight, page).await?)
    }
}
