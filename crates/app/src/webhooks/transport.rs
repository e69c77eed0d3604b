//! Sending one signed webhook request, as the use cases see it. Name resolution, the
//! outbound address checks, redirects (never followed), keeping to the request's time
//! limit and the size caps are the adapter's business; the answer comes back already
//! classified.

use std::time::Duration;

use async_trait::async_trait;
use opinion_webhook::{AttemptResult, SignatureHeaders};

/// One attempt's request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboundRequest {
    /// The endpoint's URL.
    pub url: String,
    /// `webhook-id`, `webhook-timestamp`, `webhook-signature`.
    pub headers: SignatureHeaders,
    /// The exact bytes that were signed.
    pub body: Vec<u8>,
    /// The endpoint's limit for the whole attempt, connecting and reading included.
    pub timeout: Duration,
}

/// What came of sending it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportResponse {
    /// The status, or why there was none.
    pub result: AttemptResult,
    /// The answer's `Retry-After`, in seconds from now, if it had a valid one.
    pub retry_after_secs: Option<u64>,
    /// The start of the answer's body, truncated to the stored size.
    pub body: Option<String>,
    /// What went wrong when there was no answer (for the delivery log; no secrets).
    pub error: Option<String>,
    /// How long the attempt took.
    pub elapsed: Duration,
}

/// Why a URL may not receive deliveries.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DestinationRefused(pub String);

/// Sends webhook requests.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WebhookTransport: Send + Sync {
    /// Sends one POST, once, and reports what happened. Never retries by itself.
    async fn send(&self, request: &OutboundRequest) -> TransportResponse;
    /// Resolves the URL's host and checks every address it names, as a delivery would.
    async fn check_destination(&self, url: &str) -> Result<(), DestinationRefused>;
}
