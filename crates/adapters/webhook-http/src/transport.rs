//! `HttpWebhookTransport`: the `WebhookTransport` port over reqwest.

use std::error::Error as _;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use async_trait::async_trait;
use opinion_app::webhooks::transport::{DestinationRefused, OutboundRequest, TransportResponse, WebhookTransport};
use opinion_webhook::{AttemptResult, AttemptTimeout, MAX_STORED_RESPONSE_BYTES, check_endpoint_url};
use opinion_webhook::{WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER};
use reqwest::header::{CONTENT_TYPE, RETRY_AFTER, USER_AGENT};
use reqwest::redirect::Policy;
use url::{Host, Url};

use crate::resolver::{CheckedResolver, ResolveRefusal, resolve_checked};
use crate::retry_after::retry_after_secs;

/// How the transport behaves. Each attempt's time limit is its endpoint's, carried by
/// the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransportSettings {
    /// Production: `https` only, private and loopback addresses refused.
    pub production: bool,
}

/// Sends webhook attempts over HTTP.
#[derive(Debug, Clone)]
pub struct HttpWebhookTransport {
    client: reqwest::Client,
    settings: TransportSettings,
}

/// The client could not be built (TLS set-up).
#[derive(Debug, thiserror::Error)]
#[error("cannot build the webhook HTTP client: {0}")]
pub struct TransportBuildError(#[from] reqwest::Error);

impl HttpWebhookTransport {
    /// A transport with its own connection pool.
    pub fn new(settings: TransportSettings) -> Result<Self, TransportBuildError> {
        // No proxy from the environment: a proxy would resolve the name itself, past the
        // checked resolver. Every request sets its own limit; the client's are the longest
        // any endpoint may have.
        let longest = Duration::from_secs(u64::from(AttemptTimeout::MAX_SECS));
        let client = reqwest::Client::builder()
            .no_proxy()
            .redirect(Policy::none())
            .timeout(longest)
            .connect_timeout(longest)
            .dns_resolver(Arc::new(CheckedResolver {
                production: settings.production,
            }))
            .build()?;
        Ok(Self { client, settings })
    }

    /// The answer to an attempt that got no HTTP answer.
    fn failure(result: AttemptResult, error: String, started: Instant) -> TransportResponse {
        TransportResponse {
            result,
            retry_after_secs: None,
            body: None,
            error: Some(error),
            elapsed: started.elapsed(),
        }
    }
}

/// Reads at most the stored size of the body, as text; what does not fit (or does not
/// arrive in time) is dropped with the connection.
async fn body_prefix(mut response: reqwest::Response) -> Option<String> {
    let mut bytes = Vec::new();
    while bytes.len() < MAX_STORED_RESPONSE_BYTES {
        match response.chunk().await {
            Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
            Ok(None) | Err(_) => break,
        }
    }
    bytes.truncate(MAX_STORED_RESPONSE_BYTES);
    (!bytes.is_empty()).then(|| String::from_utf8_lossy(&bytes).into_owned())
}

/// The innermost cause of an error (e.g. "connection refused", or the resolver's refusal),
/// which says more than reqwest's outer message and never holds the URL.
fn describe(error: reqwest::Error) -> String {
    let mut innermost = None;
    let mut source = error.source();
    while let Some(cause) = source {
        innermost = Some(cause.to_string());
        source = cause.source();
    }
    innermost.unwrap_or_else(|| error.without_url().to_string())
}

#[async_trait]
impl WebhookTransport for HttpWebhookTransport {
    async fn send(&self, request: &OutboundRequest) -> TransportResponse {
        let started = Instant::now();
        if let Err(refused) = check_endpoint_url(&request.url, self.settings.production) {
            return Self::failure(AttemptResult::ConnectionError, format!("refused: {refused}"), started);
        }
        let sent = self
            .client
            .post(&request.url)
            .header(CONTENT_TYPE, "application/json")
            .header(USER_AGENT, "Opinion-Webhooks/1")
            .header(WEBHOOK_ID_HEADER, &request.headers.webhook_id)
            .header(WEBHOOK_TIMESTAMP_HEADER, &request.headers.webhook_timestamp)
            .header(WEBHOOK_SIGNATURE_HEADER, &request.headers.webhook_signature)
            .body(request.body.clone())
            .timeout(request.timeout)
            .send()
            .await;
        let response = match sent {
            Ok(response) => response,
            Err(error) if error.is_timeout() => {
                return Self::failure(AttemptResult::Timeout, "timeout: no answer in time".into(), started);
            }
            Err(error) => {
                return Self::failure(
                    AttemptResult::ConnectionError,
                    format!("connection failed: {}", describe(error)),
                    started,
                );
            }
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| retry_after_secs(value, SystemTime::now()));
        let body = body_prefix(response).await;
        TransportResponse {
            result: AttemptResult::Status(status),
            retry_after_secs: retry_after,
            body,
            error: None,
            elapsed: started.elapsed(),
        }
    }

    async fn check_destination(&self, url: &str) -> Result<(), DestinationRefused> {
        check_endpoint_url(url, self.settings.production).map_err(|e| DestinationRefused(e.to_string()))?;
        let parsed = Url::parse(url).map_err(|e| DestinationRefused(e.to_string()))?;
        let Some(Host::Domain(host)) = parsed.host() else {
            return Ok(());
        };
        match resolve_checked(host, self.settings.production).await {
            Ok(_) => Ok(()),
            // Outside production a receiver's name may not resolve from here yet (a test
            // network, a tunnel set up later): deliveries to it simply fail and retry.
            Err(ResolveRefusal::Unresolvable(_)) if !self.settings.production => Ok(()),
            Err(refusal) => Err(DestinationRefused(refusal.to_string())),
        }
    }
}
