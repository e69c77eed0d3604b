//! What the hosted player pages (`/play` for Opinion, `/play/flight` for flight) share:
//! the page shell, the base style, the script prelude that exchanges the launch token in
//! the URL fragment (which never reaches a server log) for a player session and sends the
//! player to the page of the session's product, the policy that runs only the page's own
//! script and style (by hash) and calls only this service, and the response headers. On
//! an operator's launch host the policy also names the only sites that may frame the page.

use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use actix_web::{HttpRequest, HttpResponse};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use opinion_app::model::LaunchSite;
use opinion_app::players::{FLIGHT_PLAY_PATH, OPINION_PLAY_PATH};
use opinion_wallet::Product;
use sha2::{Digest, Sha256};

use crate::http::client::request_host;
use crate::http::error::ApiError;
use crate::state::ApiState;
use crate::views::HTML_UTF8;

/// The style every hosted page starts from.
pub(super) const BASE_STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:56rem;padding:1rem;color:#1d2330;background:#f6f7f9}\
h1{font-size:1.3rem}table{border-collapse:collapse;width:100%;background:#fff;margin-bottom:1.5rem}\
th,td{padding:.4rem .6rem;border-bottom:1px solid #e4e7ec;text-align:left}td.num{text-align:right}\
input{width:6rem}button{margin-left:.3rem}#status{min-height:1.5rem;color:#5b6475}";

/// The script prelude every hosted page runs first: `say` (the status line), `api` (a
/// call of the player API with the session), `cell` and `button` (table building, as
/// text only) and `open(product)`, which exchanges a launch token in the fragment for a
/// session (kept in the tab's `sessionStorage`) and resolves `true` when this page is the
/// page of the session's product, or sends the player to that page and resolves `false`.
const PRELUDE: &str = r#"
  var status = document.getElementById('status');
  var say = function (text) { status.textContent = text; };
  var api = function (method, path, body) {
    var headers = { 'Content-Type': 'application/json' };
    var session = sessionStorage.getItem('opinion.session');
    if (session) { headers.Authorization = 'Bearer ' + session; }
    return fetch(path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) { var e = new Error(j.detail || j.code); e.code = j.code; throw e; } return j; }); });
  };
  var cell = function (row, text, numeric) {
    var td = row.insertCell(); td.textContent = text; if (numeric) { td.className = 'num'; } return td;
  };
  var button = function (td, label, action) {
    var b = document.createElement('button'); b.textContent = label; b.onclick = action; td.appendChild(b); return b;
  };
  var open = function (product) {
    var launch = /launch=([^&]+)/.exec(location.hash);
    var opened = launch
      ? api('POST', '/api/player/sessions', { launchToken: decodeURIComponent(launch[1]) }).then(function (s) {
          history.replaceState(null, '', location.pathname);
          sessionStorage.setItem('opinion.session', s.sessionToken);
          sessionStorage.setItem('opinion.product', s.product);
          if (s.locale) { sessionStorage.setItem('opinion.locale', s.locale); } else { sessionStorage.removeItem('opinion.locale'); }
        })
      : Promise.resolve();
    return opened.then(function () {
      if (!sessionStorage.getItem('opinion.session')) { say('Open this page from your operator\u2019s site to play.'); return false; }
      var own = sessionStorage.getItem('opinion.product') || OPINION;
      if (own !== product && PAGES[own]) { location.replace(PAGES[own]); return false; }
      var locale = sessionStorage.getItem('opinion.locale');
      if (locale) { document.documentElement.lang = locale; }
      return true;
    });
  };
"#;

/// A hosted page's style, script and the policy that runs exactly them, made once.
pub(super) struct Assets {
    style: String,
    script: String,
    policy: String,
}

impl Assets {
    /// The page whose style is `style` and whose own script is `body`, run after the
    /// prelude inside one function scope.
    pub(super) fn new(style: String, body: &str) -> Self {
        let script = format!(
            "(function () {{\n  var OPINION = {opinion}, FLIGHT = {flight};\n  var PAGES = {{ {opinion}: {opinion_path}, {flight}: {flight_path} }};{PRELUDE}{body}}})();",
            opinion = js_string(Product::Opinion.as_str()),
            flight = js_string(Product::Flight.as_str()),
            opinion_path = js_string(OPINION_PLAY_PATH),
            flight_path = js_string(FLIGHT_PLAY_PATH),
        );
        let hash = |text: &str| STANDARD.encode(Sha256::digest(text.as_bytes()));
        let policy = format!(
            "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; connect-src 'self'; \
             img-src 'none'; base-uri 'none'; form-action 'none'",
            hash(&script),
            hash(&style)
        );
        Self { style, script, policy }
    }

    /// The page's whole script, prelude included.
    pub(super) fn script(&self) -> &str {
        &self.script
    }

    /// The policy where the page is served: on an operator's launch host, framed only by
    /// that operator's origins (none when it named none); on the public host, which serves
    /// every operator and cannot know which one before the token is exchanged, frameable
    /// by the operators' sites as before.
    pub(super) fn policy_for(&self, site: Option<&LaunchSite>) -> String {
        match site {
            Some(site) => format!(
                "{}; frame-ancestors {}",
                self.policy,
                site.frame_origins.frame_ancestors()
            ),
            None => self.policy.clone(),
        }
    }
}

/// A JavaScript string literal of `text` (JSON's string syntax is JavaScript's).
fn js_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// The page titled `title` with `body`, with the policy of the host it is served on.
pub(super) async fn serve(
    state: &ApiState,
    request: &HttpRequest,
    assets: &Assets,
    title: &str,
    body: Markup,
) -> Result<HttpResponse, ApiError> {
    let site = state.players.site_for_host(request_host(request)).await?;
    Ok(respond(assets, title, body, &assets.policy_for(site.as_ref())))
}

/// The whole response: the shell around `body`, never cached, sniffed or referred from.
fn respond(assets: &Assets, title: &str, body: Markup, policy: &str) -> HttpResponse {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { (title) }
                style { (PreEscaped(&assets.style)) }
            }
            body {
                h1 { (title) }
                p #status { "Opening your session…" }
                (body)
                script { (PreEscaped(&assets.script)) }
            }
        }
    };
    let mut response = HttpResponse::Ok().body(page.into_string());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(HTML_UTF8));
    if let Ok(policy) = HeaderValue::from_str(policy) {
        headers.insert(CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assets() -> Assets {
        Assets::new(BASE_STYLE.to_owned(), "  open(OPINION);\n")
    }

    #[test]
    fn the_policy_runs_exactly_the_pages_own_script_and_style() {
        let assets = assets();
        let policy = assets.policy_for(None);
        assert!(policy.contains(&STANDARD.encode(Sha256::digest(assets.script.as_bytes()))));
        assert!(policy.contains(&STANDARD.encode(Sha256::digest(BASE_STYLE.as_bytes()))));
        assert!(policy.contains("connect-src 'self'"));
        assert!(!policy.contains("unsafe"));
    }

    #[test]
    fn a_launch_host_names_its_frame_ancestors_and_the_public_host_none() {
        use opinion_core::OperatorId;
        use opinion_launch::FrameOrigins;

        let assets = assets();
        assert!(!assets.policy_for(None).contains("frame-ancestors"));
        let site = |origins: &[&str]| LaunchSite {
            operator_id: OperatorId::from_u128(1),
            frame_origins: FrameOrigins::parse(&origins.iter().map(|o| (*o).to_owned()).collect::<Vec<_>>())
                .expect("origins"),
        };
        assert!(
            assets
                .policy_for(Some(&site(&[])))
                .ends_with("; frame-ancestors 'none'")
        );
        let framed = assets.policy_for(Some(&site(&["https://casino.example", "https://m.casino.example"])));
        assert!(framed.starts_with(assets.policy.as_str()));
        assert!(framed.ends_with("; frame-ancestors https://casino.example https://m.casino.example"));
    }

    #[test]
    fn the_prelude_knows_each_products_page() {
        let script = assets().script;
        assert!(script.contains(r#"var PAGES = { "opinion": "/play", "flight": "/play/flight" };"#));
        assert!(!script.contains("innerHTML") && !script.contains("outerHTML") && !script.contains("document.write"));
    }

    #[test]
    fn the_response_is_never_cached_sniffed_or_referred_from() {
        let response = respond(&assets(), "<script>", html! {}, "default-src 'none'");
        assert_eq!(
            response.headers().get(CACHE_CONTROL).map(HeaderValue::as_bytes),
            Some(&b"no-store"[..])
        );
        assert_eq!(
            response
                .headers()
                .get(X_CONTENT_TYPE_OPTIONS)
                .map(HeaderValue::as_bytes),
            Some(&b"nosniff"[..])
        );
        assert_eq!(
            response.headers().get(REFERRER_POLICY).map(HeaderValue::as_bytes),
            Some(&b"no-referrer"[..])
        );
    }
}
