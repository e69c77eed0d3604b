//! `MeasuredTransport`: the webhook transport, counting every attempt by result and
//! timing it.

use std::sync::Arc;

use async_trait::async_trait;
use opinion_app::webhooks::transport::{DestinationRefused, OutboundRequest, TransportResponse, WebhookTransport};

use crate::families::attempt_result;
use crate::registry::Metrics;

/// Wraps the transport the delivery workers and replays use; what is sent is unchanged.
pub struct MeasuredTransport {
    inner: Arc<dyn WebhookTransport>,
    metrics: Arc<Metrics>,
}

impl MeasuredTransport {
    /// `inner`, measured into `metrics`.
    pub fn new(inner: Arc<dyn WebhookTransport>, metrics: Arc<Metrics>) -> Self {
        Self { inner, metrics }
    }
}

#[async_trait]
impl WebhookTransport for MeasuredTransport {
    async fn send(&self, request: &OutboundRequest) -> TransportResponse {
        let response = self.inner.send(request).await;
        self.metrics
            .webhook_attempt(attempt_result(&response.result), response.elapsed);
        response
    }

    async fn check_destination(&self, url: &str) -> Result<(), DestinationRefused> {
        self.inner.check_destination(url).await
    }
}
