//! The HTML pages: the operator's (one small shared layout, readable tables, amounts shown
//! in the currency's major units) and the hosted player pages (`hosted.rs` and its two
//! pages: `play.rs` with its own cached assets in `play_assets.rs`, and `flight_page.rs`).
//! Every dynamic value goes through maud, which escapes it; pages carry a
//! Content-Security-Policy that allows nothing but their own style and script (inline by
//! hash, or this service's own files), so even a value that escaped escaping could not
//! run or load anything.

pub mod dto;
mod flight_page;
mod format;
pub mod handlers;
mod history;
mod hosted;
mod play;
pub mod play_assets;
mod portfolio;
mod trade;

use std::sync::LazyLock;

use actix_web::HttpResponse;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use sha2::{Digest, Sha256};

pub use flight_page::flight_page;
pub use history::history_page;
pub use play::play_page;
pub use portfolio::portfolio_page;
pub use trade::trade_page;

/// The media type of the pages.
pub const HTML_UTF8: &str = "text/html; charset=utf-8";

const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}\
header,main,footer{max-width:72rem;margin:0 auto;padding:0 1.25rem}\
header{padding-top:1.5rem}.brand{color:#5b6475;font-size:.8rem;letter-spacing:.08em;text-transform:uppercase;margin:0}\
h1{font-size:1.5rem;margin:.25rem 0 1rem}h2{font-size:1.1rem;margin:1.75rem 0 .5rem}\
table{border-collapse:collapse;width:100%;background:#fff;box-shadow:0 1px 2px #0001}\
th,td{padding:.45rem .7rem;border-bottom:1px solid #e4e7ec;text-align:left;vertical-align:top}\
th{background:#eef0f4;font-weight:600;font-size:.85rem}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.25rem;background:#fff;padding:1rem;box-shadow:0 1px 2px #0001}\
dt{color:#5b6475}dd{margin:0}code{font-size:.85rem;word-break:break-all}\
.empty{color:#5b6475;font-style:italic}footer{color:#5b6475;font-size:.8rem;padding:2rem 1.25rem}";

/// `style-src` allows exactly the layout's style, by its SHA-256.
static CONTENT_SECURITY_POLICY_VALUE: LazyLock<String> = LazyLock::new(|| {
    let hash = STANDARD.encode(Sha256::digest(STYLE.as_bytes()));
    format!(
        "default-src 'none'; style-src 'sha256-{hash}'; img-src 'none'; base-uri 'none'; form-action 'none'; \
         frame-ancestors 'none'"
    )
});

/// The page around `content`, titled `title`.
fn layout(title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { (title) " · Opinion" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header {
                    p.brand { "Opinion" }
                    h1 { (title) }
                }
                main { (content) }
                footer { "All times are UTC. Amounts are in the operator's currency; one share pays one unit." }
            }
        }
    }
}

/// A complete page response: UTF-8 HTML, the restrictive policy, never cached or framed,
/// and no referrer (a signed link must not leak through one).
pub fn page_response(title: &str, content: Markup) -> HttpResponse {
    let body = layout(title, content).into_string();
    let mut response = HttpResponse::Ok().body(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(HTML_UTF8));
    if let Ok(policy) = HeaderValue::from_str(&CONTENT_SECURITY_POLICY_VALUE) {
        headers.insert(CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_exactly_the_layouts_style() {
        let policy = CONTENT_SECURITY_POLICY_VALUE.as_str();
        assert!(policy.starts_with("default-src 'none'; style-src 'sha256-"));
        let expected = STANDARD.encode(Sha256::digest(STYLE.as_bytes()));
        assert!(policy.contains(&expected));
        assert!(!policy.contains("unsafe"));
    }

    #[test]
    fn titles_are_escaped() {
        let page = layout("<script>alert(1)</script>", html! {}).into_string();
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(!page.contains("<script>"));
    }
}
