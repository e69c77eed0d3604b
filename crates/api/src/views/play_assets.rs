//! The hosted Opinion app's own stylesheet, script and icon, served by the service (no CDN) at
//! addresses carrying a hash of their content, so a phone keeps them for a year and a new
//! build is fetched at once; the page's policy allows scripts and styles from this service
//! only. The script is the shared hosted prelude, the language catalogs (one JSON file per
//! language, `play_assets/i18n/`) and the app (`play_assets/play.js`).

use std::sync::LazyLock;

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue, X_CONTENT_TYPE_OPTIONS};
use actix_web::{HttpResponse, web};
use sha2::{Digest, Sha256};

use crate::docs_site::assets::ICON;
use crate::http::error::ApiError;
use crate::views::hosted::Assets;

/// The stylesheet.
const STYLE: &str = include_str!("play_assets/play.css");
/// The app's own code, run after the prelude.
const APP: &str = include_str!("play_assets/play.js");
/// Every language the app speaks, with its catalog: English first (the fallback).
const CATALOGS: [(&str, &str); 2] = [
    ("en", include_str!("play_assets/i18n/en.json")),
    ("id", include_str!("play_assets/i18n/id.json")),
];
/// Assets are addressed by their hash: kept for a year.
const ASSET_CACHE: &str = "public, max-age=31536000, immutable";

/// The whole script: the prelude, `I18N` and the app, in one function scope.
static SCRIPT: LazyLock<String> = LazyLock::new(|| {
    let catalogs = CATALOGS
        .iter()
        .map(|(language, catalog)| format!("{language}: {}", catalog.trim()))
        .collect::<Vec<_>>()
        .join(",\n");
    let body = format!("  var I18N = {{\n{catalogs}\n}};\n{APP}");
    Assets::new(String::new(), &body).script().to_owned()
});

/// Where the page links its stylesheet.
pub static STYLE_URL: LazyLock<String> = LazyLock::new(|| format!("/play/assets/play.css?v={}", short_hash(STYLE)));
/// Where the page links its icon (the platform's, as on the documentation site).
pub static ICON_URL: LazyLock<String> = LazyLock::new(|| format!("/play/assets/icon.svg?v={}", short_hash(ICON)));
/// Where the page links its script.
pub static SCRIPT_URL: LazyLock<String> = LazyLock::new(|| format!("/play/assets/play.js?v={}", short_hash(&SCRIPT)));

fn short_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .take(6)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// `GET /play/assets/{name}`: the stylesheet, the script or the icon, cached for a year.
pub async fn play_asset(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let (body, media) = match name.as_str() {
        "play.css" => (STYLE.to_owned(), "text/css; charset=utf-8"),
        "play.js" => (SCRIPT.clone(), "text/javascript; charset=utf-8"),
        "icon.svg" => (ICON.to_owned(), "image/svg+xml"),
        _ => return Err(ApiError::RouteNotFound),
    };
    let mut response = HttpResponse::Ok().body(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(media));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(ASSET_CACHE));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn keys(catalog: &str) -> BTreeSet<String> {
        let parsed: serde_json::Map<String, serde_json::Value> = serde_json::from_str(catalog).expect("a JSON object");
        for (key, text) in &parsed {
            assert!(
                text.as_str().is_some_and(|t| !t.trim().is_empty()),
                "`{key}` has a text"
            );
        }
        parsed.keys().cloned().collect()
    }

    #[test]
    fn every_language_has_every_key_and_the_app_uses_only_known_keys() {
        let english = keys(CATALOGS[0].1);
        for (language, catalog) in &CATALOGS[1..] {
            assert_eq!(keys(catalog), english, "`{language}` has exactly the English keys");
        }
        let asked: Vec<&str> = APP
            .match_indices("t('")
            .filter(|(at, _)| !APP[..*at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
            .filter_map(|(at, call)| APP[at + call.len()..].split_once('\'').map(|(key, _)| key))
            .collect();
        assert!(asked.len() > 40, "the app's texts are found: {asked:?}");
        for key in asked {
            let known = match key.strip_suffix('.') {
                Some(prefix) => english
                    .iter()
                    .any(|known| known.starts_with(key) && known.len() > prefix.len()),
                None => english.contains(key),
            };
            assert!(known, "the app asks for `{key}`, which no catalog has");
        }
        for outcome in ["yes", "no", "void"] {
            assert!(english.contains(&format!("outcome.{outcome}")));
        }
        for status in ["executed", "failed", "manual_review", "pending"] {
            assert!(english.contains(&format!("trade.{status}")));
        }
    }

    #[test]
    fn every_refusal_the_app_words_itself_is_a_problem_code_of_the_service() {
        let english = keys(CATALOGS[0].1);
        let worded: Vec<&str> = english.iter().filter_map(|key| key.strip_prefix("problem.")).collect();
        assert!(worded.contains(&"limit_not_met"), "{worded:?}");
        for code in worded {
            assert!(
                opinion_app::error::ProblemCode::ALL
                    .iter()
                    .any(|known| known.as_str() == code),
                "`problem.{code}` names no problem code"
            );
        }
    }

    #[test]
    fn the_script_opens_an_opinion_session_and_never_writes_markup() {
        assert!(SCRIPT.contains("open(OPINION)"));
        assert!(SCRIPT.contains("var I18N = {\nen: {"));
        for markup in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ] {
            assert!(!SCRIPT.contains(markup), "{markup}");
        }
    }

    #[test]
    fn assets_are_addressed_by_their_content() {
        assert!(STYLE_URL.starts_with("/play/assets/play.css?v="));
        assert!(SCRIPT_URL.starts_with("/play/assets/play.js?v="));
        assert_eq!(SCRIPT_URL.len(), "/play/assets/play.js?v=".len() + 12);
    }
}
