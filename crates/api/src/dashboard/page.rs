//! How a dashboard answer is sent: HTML under a policy that loads only the service's own
//! files and posts forms only back to it, never cached (pages show a member's data and,
//! once, secrets), and redirects after a change.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::LOCATION;
use maud::Markup;

use crate::shared::web_page::answer;
use crate::views::HTML_UTF8;

/// Only the service's own files; no inline script or style, no plugins, no framing; forms
/// post to the service only.
pub const POLICY: &str = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                          frame-ancestors 'none'";
/// Pages hold a member's data (and secrets shown once): never stored.
const NO_STORE: &str = "no-store";

/// A page with `status`.
pub fn html(status: StatusCode, document: Markup) -> HttpResponse {
    answer(status, HTML_UTF8, NO_STORE, POLICY, document.into_string())
}

/// After a change: see the page at `location` (303, so a reload does not post again).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((LOCATION, location.to_owned()))
        .insert_header(("cache-control", NO_STORE))
        .finish()
}
