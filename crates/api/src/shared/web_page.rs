//! What the service's own web surfaces (the documentation site and the dashboard) share:
//! assets addressed by a hash of their content, and answers carrying the headers that keep
//! a page to its own policy.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use sha2::{Digest, Sha256};

/// Assets are addressed by their hash: kept for a year.
pub const ASSET_CACHE: &str = "public, max-age=31536000, immutable";

/// The address of the asset `name` served under `base`, carrying a hash of `body`, so it
/// can be cached for a year and a new build is fetched at once.
pub fn hashed_address(base: &str, name: &str, body: &str) -> String {
    let hash: String = Sha256::digest(body.as_bytes())
        .iter()
        .take(6)
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("{base}/{name}?v={hash}")
}

/// An answer of `media` under `policy`: never sniffed, never framed, no referrer beyond
/// the origin.
pub fn answer(
    status: StatusCode,
    media: &'static str,
    cache: &'static str,
    policy: &'static str,
    body: String,
) -> HttpResponse {
    let mut response = HttpResponse::build(status).body(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(media));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(policy));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    response
}
