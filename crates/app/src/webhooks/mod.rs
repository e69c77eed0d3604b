//! The webhook service: endpoints, the delivery log, replays and the delivery workers'
//! step, over the webhook store, the transport, the clock and the random source. Each use
//! case lives in its own file as an `impl Webhooks` block.

pub mod store;
pub mod transport;

mod attempt;
mod claim_pacing;
mod deliveries;
mod endpoints;
mod worker;

#[cfg(test)]
mod attempt_tests;
#[cfg(test)]
mod delivery_detail_tests;
#[cfg(test)]
mod endpoints_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
pub(crate) mod test_fixtures;

pub use claim_pacing::ClaimPacing;
pub use endpoints::{EndpointWithSecret, MAX_DESCRIPTION_CHARS, NewWebhookEndpoint, WebhookEndpointChange};
pub use worker::{DeliveryPipeline, DeliveryRound, Finished};

use std::sync::Arc;

use opinion_webhook::{AttemptResult, SigningSecret};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::error::AppError;
use crate::ports::{Clock, Random};
use crate::webhooks::store::WebhookStore;
use crate::webhooks::transport::WebhookTransport;

/// The ports the webhook use cases need.
#[derive(Clone)]
pub struct WebhookPorts {
    /// Endpoints, deliveries, attempts.
    pub store: Arc<dyn WebhookStore>,
    /// Sends signed requests.
    pub transport: Arc<dyn WebhookTransport>,
    pub clock: Arc<dyn Clock>,
    /// Ids, secrets and jitter.
    pub random: Arc<dyn Random>,
}

/// Settings of the webhook use cases, read from configuration at start-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookSettings {
    /// Production: endpoint URLs must be `https` and may not name private addresses.
    pub production: bool,
}

/// Webhook endpoints, deliveries and their attempts.
#[derive(Clone)]
pub struct Webhooks {
    pub(crate) ports: WebhookPorts,
    pub(crate) settings: WebhookSettings,
}

impl Webhooks {
    /// Builds the service from its ports and settings.
    pub fn new(ports: WebhookPorts, settings: WebhookSettings) -> Self {
        Self { ports, settings }
    }

    /// A new signing secret from the random source.
    pub(crate) fn new_secret(&self) -> Result<SigningSecret, AppError> {
        SigningSecret::from_random_bytes(&self.ports.random.secret_bytes())
            .map_err(|e| AppError::Internal(e.to_string()))
    }

    /// A uniformly random number for the retry jitter.
    pub(crate) fn jitter(&self) -> u32 {
        let [a, b, c, d, ..] = self.ports.random.secret_bytes();
        u32::from_le_bytes([a, b, c, d])
    }
}

/// A time as the envelope's `createdAt` writes it: RFC 3339 in UTC with `Z`.
pub(crate) fn rfc3339(at: OffsetDateTime) -> Result<String, AppError> {
    at.to_offset(time::UtcOffset::UTC)
        .format(&Rfc3339)
        .map_err(|e| AppError::Internal(format!("cannot format a time: {e}")))
}

/// Why an answer's status counts as a failure, for the delivery log.
pub(crate) fn status_error(result: AttemptResult) -> Option<String> {
    match result {
        AttemptResult::Status(200..=299) => None,
        AttemptResult::Status(410) => Some("410 Gone: the endpoint is disabled".into()),
        AttemptResult::Status(status @ 300..=399) => Some(format!("{status}: redirects are not followed")),
        AttemptResult::Status(status) => Some(format!("{status}: not a 2xx answer")),
        AttemptResult::Timeout | AttemptResult::ConnectionError => None,
    }
}
