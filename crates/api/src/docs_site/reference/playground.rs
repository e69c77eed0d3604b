//! The playground page: every route of the operator API with its credential and scopes,
//! and a console that sends a real request to this service with a key pasted into the
//! page. The key lives in the page's memory only (no storage, no cookie, gone with the
//! page). Where no simulator runs (production) the console is read-only: it sends `GET`
//! requests only and offers only `GET` routes.

use std::fmt::Write as _;

use opinion_access::{HttpMethod, ROUTES};
use serde_json::Value;

use crate::docs_site::reference::api::route_link;
use crate::docs_site::reference::scopes::requirement_words;

/// Whether the console may send every method or `GET` only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Development and staging: every route.
    Full,
    /// Production: reads only.
    ReadOnly,
}

/// The page's markdown in `mode`.
pub fn page(document: &Value, mode: Mode) -> String {
    let (attribute, sentence) = match mode {
        Mode::Full => (
            "full",
            "Requests act on this environment's data like any other call with the same key: use a \
             staging key and the simulator.",
        ),
        Mode::ReadOnly => (
            "read-only",
            "This environment is production: the console is read-only and sends `GET` requests only.",
        ),
    };
    let mut options = String::new();
    for spec in ROUTES
        .iter()
        .filter(|spec| spec.path.starts_with("/api/operator/"))
        .filter(|spec| mode == Mode::Full || spec.method == HttpMethod::Get)
    {
        let route = format!("{} {}", spec.method.as_str(), spec.path);
        let _ = write!(options, "<option value=\"{route}\">{route}</option>");
    }
    let body_field = match mode {
        Mode::Full => {
            "<label for=\"try-body\">Body (JSON, for POST, PUT and PATCH)</label>\
             <textarea id=\"try-body\" rows=\"6\" spellcheck=\"false\"></textarea>"
        }
        Mode::ReadOnly => "",
    };
    let mut page = format!(
        "# Playground\n\nSend a real request to this service with your own API key. The key stays in this \
         page's memory: it is not stored, goes only with your request to this service, and is gone when you \
         leave the page. {sentence}\n\n\
         <div class=\"playground\" id=\"playground\" data-mode=\"{attribute}\">\
         <form id=\"try\" autocomplete=\"off\">\
         <label for=\"try-key\">API key</label>\
         <input id=\"try-key\" type=\"password\" autocomplete=\"off\" spellcheck=\"false\" placeholder=\"opk_…\">\
         <label for=\"try-route\">Route</label><select id=\"try-route\">{options}</select>\
         <label for=\"try-path\">Path and query (replace each {{parameter}})</label>\
         <input id=\"try-path\" type=\"text\" spellcheck=\"false\">\
         {body_field}<button type=\"submit\">Send</button></form>\
         <p id=\"try-status\" role=\"status\"></p><pre id=\"try-answer\"></pre></div>\n\n\
         ## Catalog\n\nEvery route, what it asks of a credential, and its reference.\n\n\
         | route | credential | scopes |\n|---|---|---|\n"
    );
    for spec in ROUTES {
        let (credential, scopes) = requirement_words(spec);
        let _ = writeln!(page, "| {} | {credential} | {scopes} |", route_link(document, spec));
    }
    page
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::openapi::document;

    fn document_json() -> Value {
        serde_json::to_value(document()).expect("the document is JSON")
    }

    #[test]
    fn the_catalog_lists_every_route_and_the_console_offers_every_operator_route() {
        let document = document_json();
        let page = page(&document, Mode::Full);
        for spec in ROUTES {
            assert!(page.contains(&route_link(&document, spec)), "{}", spec.path);
            if spec.path.starts_with("/api/operator/") {
                let route = format!("{} {}", spec.method.as_str(), spec.path);
                assert!(page.contains(&format!("<option value=\"{route}\">")), "{route}");
            }
        }
    }

    #[test]
    fn read_only_offers_reads_only_and_no_body() {
        let page = page(&document_json(), Mode::ReadOnly);
        assert!(page.contains("data-mode=\"read-only\""));
        assert!(page.contains("<option value=\"GET /api/operator/markets\">"));
        assert!(!page.contains("<option value=\"POST "));
        assert!(!page.contains("try-body"));
    }
}
