//! One signed POST to a wallet and what was observed of it, before any interpretation.
//! The mapping of reqwest's errors is the whole point of this file:
//!
//! | observed | outcome |
//! |---|---|
//! | the request could not be built (bad URL) | `NotSent` |
//! | the connection could not be established: resolution, TCP refused or not in time, TLS, a forbidden address | `NotSent` |
//! | any other failure before the status line: time-out | `TimedOut` |
//! | any other failure before the status line: connection reset or closed | `ConnectionLostAfterSend` |
//! | a status line, then the body failing or too slow | `ConnectionLostAfterSend` / `TimedOut` |
//! | a status line and the whole body | `Answered` |
//! | a status line and a body over [`MAX_ANSWER_BYTES`] | `Answered` with an empty body (unreadable) |

use std::time::Duration;

use opinion_wallet::{IDEMPOTENCY_KEY_HEADER, TransportOutcome};
use opinion_webhook::{SignatureHeaders, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER};
use reqwest::header::CONTENT_TYPE;
use reqwest::{Client, Response};

/// The largest answer body read; a larger one is not read at all.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// What one call came to, owning the body (`TransportOutcome` borrows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Observed {
    /// Provably not sent.
    NotSent,
    /// Sent, or maybe sent, and no complete answer in time.
    TimedOut,
    /// Sent, or maybe sent, and the connection broke before a complete answer.
    LostAfterSend,
    /// A complete answer.
    Answered {
        /// The status.
        status: u16,
        /// The body, or empty if it was larger than allowed.
        body: Vec<u8>,
    },
}

impl Observed {
    /// The outcome, for classification.
    pub(crate) fn transport(&self) -> TransportOutcome<'_> {
        match self {
            Self::NotSent => TransportOutcome::NotSent,
            Self::TimedOut => TransportOutcome::TimedOut,
            Self::LostAfterSend => TransportOutcome::ConnectionLostAfterSend,
            Self::Answered { status, body } => TransportOutcome::Answered { status: *status, body },
        }
    }

    /// The answer's status, if one arrived.
    pub(crate) fn status(&self) -> Option<u16> {
        match self {
            Self::Answered { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// A call ready to send.
pub(crate) struct SignedPost<'a> {
    /// Base URL and path.
    pub(crate) url: &'a str,
    /// The Standard Webhooks headers.
    pub(crate) signature: SignatureHeaders,
    /// The `Idempotency-Key` header, for mutations.
    pub(crate) idempotency_key: Option<&'a str>,
    /// The exact bytes signed.
    pub(crate) body: Vec<u8>,
    /// The whole call's time limit.
    pub(crate) timeout: Duration,
}

/// Sends `post` once through `client` and reports what happened.
pub(crate) async fn post(client: &Client, post: SignedPost<'_>) -> Observed {
    let mut request = client
        .post(post.url)
        .timeout(post.timeout)
        .header(CONTENT_TYPE, "application/json")
        .header(WEBHOOK_ID_HEADER, post.signature.webhook_id)
        .header(WEBHOOK_TIMESTAMP_HEADER, post.signature.webhook_timestamp)
        .header(WEBHOOK_SIGNATURE_HEADER, post.signature.webhook_signature)
        .body(post.body);
    if let Some(key) = post.idempotency_key {
        request = request.header(IDEMPOTENCY_KEY_HEADER, key);
    }
    let response = match request.send().await {
        Ok(response) => response,
        Err(error) => return before_answer(&error),
    };
    let status = response.status().as_u16();
    match read_capped(response).await {
        Ok(Some(body)) => Observed::Answered { status, body },
        Ok(None) => {
            tracing::warn!(
                status,
                limit = MAX_ANSWER_BYTES,
                "the wallet's answer is too large to read"
            );
            Observed::Answered {
                status,
                body: Vec::new(),
            }
        }
        Err(error) => {
            tracing::warn!(status, error = %error, "the wallet's answer was cut short");
            if error.is_timeout() {
                Observed::TimedOut
            } else {
                Observed::LostAfterSend
            }
        }
    }
}

/// What a failure before the status line means. A connect error is checked first: a
/// connection that did not come up in time is also a time-out, but nothing was sent.
fn before_answer(error: &reqwest::Error) -> Observed {
    let observed = if error.is_builder() || error.is_connect() {
        Observed::NotSent
    } else if error.is_timeout() {
        Observed::TimedOut
    } else {
        Observed::LostAfterSend
    };
    tracing::warn!(error = %error, source = ?std::error::Error::source(error), ?observed, "the wallet call failed");
    observed
}

/// The whole body, or `None` if it is larger than [`MAX_ANSWER_BYTES`].
async fn read_capped(mut response: Response) -> Result<Option<Vec<u8>>, reqwest::Error> {
    let limit = u64::try_from(MAX_ANSWER_BYTES).unwrap_or(u64::MAX);
    if response.content_length().is_some_and(|length| length > limit) {
        return Ok(None);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > MAX_ANSWER_BYTES {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
}
