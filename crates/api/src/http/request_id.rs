//! Request ids and the per-request tracing span. Every response carries `x-request-id`
//! (the client's own, when it sent a sane one), every log line of the request carries it,
//! and so does every problem body.

use std::future::Future;
use std::time::Instant;

use actix_web::Error;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::{Instrument, Span};

/// The header that carries the request id, both ways.
pub const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

tokio::task_local! {
    static REQUEST_ID: String;
}

/// The id of the request being served, if any.
pub fn current() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

/// Assigns the request id, opens the request's span and logs the outcome. Handlers,
/// extractors and the guard turn their errors into responses inside this scope, so
/// problem bodies can name the request.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let id = request_id(request.headers().get(REQUEST_ID_HEADER));
    let span = request_span(&id, request.method().as_str(), request.path());
    let started = Instant::now();
    let mut response = scoped(id.clone(), next.call(request)).instrument(span.clone()).await?;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    log_outcome(&span, response.status().as_u16(), started);
    Ok(response)
}

/// The id of a request that sent `incoming` as its `x-request-id`: the client's own when
/// it is sane, a new one otherwise.
pub(crate) fn request_id(incoming: Option<&HeaderValue>) -> String {
    incoming
        .and_then(|value| value.to_str().ok())
        .filter(|value| sane(value))
        .map_or_else(
            || format!("req_{}", ulid::Ulid::new().to_string().to_ascii_lowercase()),
            str::to_owned,
        )
}

/// The span every log line of one request is written in.
pub(crate) fn request_span(id: &str, method: &str, path: &str) -> Span {
    tracing::info_span!(
        "http_request",
        request_id = %id,
        method = %method,
        path = %path,
        operator_id = tracing::field::Empty,
        actor = tracing::field::Empty,
        status = tracing::field::Empty,
    )
}

/// Runs `serving` with `id` as the request being served, for problem bodies to name.
pub(crate) fn scoped<F: Future>(id: String, serving: F) -> impl Future<Output = F::Output> {
    REQUEST_ID.scope(id, serving)
}

/// Records the answer's `status` on `span` and logs it with the time since `started`.
pub(crate) fn log_outcome(span: &Span, status: u16, started: Instant) {
    span.record("status", status);
    span.in_scope(|| {
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        if status >= 500 {
            tracing::error!(status, elapsed_ms, "request failed");
        } else {
            tracing::info!(status, elapsed_ms, "request served");
        }
    });
}

/// Whether a client's request id may be echoed and logged as it is.
fn sane(value: &str) -> bool {
    !value.is_empty() && value.len() <= 128 && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
}
