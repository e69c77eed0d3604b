//! The playground page: every route of the operator API with its credential and scopes,
//! and a console that sends a real request to this service with a key pasted into the
//! page. The key lives in the page's memory only (no storage, no cookie, gone with the
//! page). Every request it sends carries the `opinion-playground` header, by which the
//! service refuses its writes in production unless the operator turned the console on
//! for itself (`PUT /api/operator/playground`); the page only says so.

use std::fmt::Write as _;

use opinion_access::{ROUTES, RouteId};
use serde_json::Value;

use crate::docs_site::reference::api::route_link;
use crate::docs_site::reference::scopes::requirement_words;

/// Which environment the page is for: what it tells the reader the console may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Development and staging: every route.
    Full,
    /// Production: reads only, unless the operator turned the console on.
    ReadOnly,
}

/// The page's markdown in `mode`.
pub fn page(document: &Value, mode: Mode) -> String {
    let sentence = match mode {
        Mode::Full => "Requests act on this environment's data like any other call with the same key: use a \
                       staging key and the simulator."
            .to_owned(),
        Mode::ReadOnly => {
            let turn_on = RouteId::PlaygroundPut.spec();
            format!(
                "This environment is production: the console sends `GET` requests only, unless your operator \
                 turned it on for itself with `PUT {}` and `{{\"console\": \"read_write\"}}` (scope {}). Then \
                 requests act on live data, like any other call with the same key.",
                turn_on.path,
                requirement_words(turn_on).1
            )
        }
    };
    let mut options = String::new();
    for spec in ROUTES.iter().filter(|spec| spec.path.starts_with("/api/operator/")) {
        let route = format!("{} {}", spec.method.as_str(), spec.path);
        let _ = write!(options, "<option value=\"{route}\">{route}</option>");
    }
    let mut page = format!(
        "# Playground\n\nSend a real request to this service with your own API key. The key stays in this \
         page's memory: it is not stored, goes only with your request to this service, and is gone when you \
         leave the page. {sentence}\n\n\
         <div class=\"playground\" id=\"playground\">\
         <form id=\"try\" autocomplete=\"off\">\
         <label for=\"try-key\">API key</label>\
         <input id=\"try-key\" type=\"password\" autocomplete=\"off\" spellcheck=\"false\" placeholder=\"opk_…\">\
         <label for=\"try-route\">Route</label><select id=\"try-route\">{options}</select>\
         <label for=\"try-path\">Path and query (replace each {{parameter}})</label>\
         <input id=\"try-path\" type=\"text\" spellcheck=\"false\">\
         <label for=\"try-body\">Body (JSON, for POST, PUT and PATCH)</label>\
         <textarea id=\"try-body\" rows=\"6\" spellcheck=\"false\"></textarea>\
         <button type=\"submit\">Send</button></form>\
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
    fn production_offers_every_route_and_says_how_writes_are_turned_on() {
        let page = page(&document_json(), Mode::ReadOnly);
        assert!(page.contains("<option value=\"POST /api/operator/api-keys\">"));
        assert!(page.contains("try-body"));
        assert!(page.contains(&format!("`PUT {}`", RouteId::PlaygroundPut.spec().path)));
        assert!(page.contains("(scope `api_keys:write`)"));
        assert!(!self::page(&document_json(), Mode::Full).contains("read_write"));
    }
}
