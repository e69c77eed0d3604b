//! Request ids and the per-request tracing span. Every response carries `x-request-id`
//! (the client's own, when it sent a sane one), every log line of the request carries it,
//! and so does every problem body.

use actix_web::Error;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;

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
    let id =
        incoming_id(&request).unwrap_or_else(|| format!("req_{}", ulid::Ulid::new().to_string().to_ascii_lowercase()));
    let span = tracing::info_span!(
        "http_request",
        request_id = %id,
        method = %request.method(),
        path = %request.path(),
        operator_id = tracing::field::Empty,
        actor = tracing::field::Empty,
        status = tracing::field::Empty,
    );
    let started = std::time::Instant::now();
    let mut response = REQUEST_ID
        .scope(id.clone(), next.call(request))
        .instrument(span.clone())
        .await?;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    let status = response.status().as_u16();
    span.record("status", status);
    span.in_scope(|| {
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        if status >= 500 {
            tracing::error!(status, elapsed_ms, "request failed");
        } else {
            tracing::info!(status, elapsed_ms, "request served");
        }
    });
    Ok(response)
}

fn incoming_id(request: &ServiceRequest) -> Option<String> {
    let value = request.headers().get(REQUEST_ID_HEADER)?.to_str().ok()?;
    let sane = !value.is_empty()
        && value.len() <= 128
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b));
    sane.then(|| value.to_owned())
}
