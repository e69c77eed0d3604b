//! `GET /play`: the hosted Opinion app a launch URL opens. The page exchanges the launch
//! token in its URL fragment (which never reaches a server log) for a player session,
//! then lists the markets on offer with their prices and the player's positions, and
//! places buys and sales through the player API. It renders everything with
//! `textContent`, never as markup, and its policy runs only its own script and style.
//! On an operator's launch host the policy also names the only sites that may frame it.

use std::sync::LazyLock;

use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use maud::{DOCTYPE, PreEscaped, html};
use opinion_app::model::LaunchSite;
use sha2::{Digest, Sha256};

use crate::http::client::request_host;
use crate::http::error::ApiError;
use crate::state::ApiState;
use crate::views::HTML_UTF8;

const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:56rem;padding:1rem;color:#1d2330;background:#f6f7f9}\
h1{font-size:1.3rem}table{border-collapse:collapse;width:100%;background:#fff;margin-bottom:1.5rem}\
th,td{padding:.4rem .6rem;border-bottom:1px solid #e4e7ec;text-align:left}td.num{text-align:right}\
input{width:6rem}button{margin-left:.3rem}#status{min-height:1.5rem;color:#5b6475}";

const SCRIPT: &str = r#"(function () {
  var status = document.getElementById('status');
  var say = function (text) { status.textContent = text; };
  var api = function (method, path, body) {
    var headers = { 'Content-Type': 'application/json' };
    var session = sessionStorage.getItem('opinion.session');
    if (session) { headers.Authorization = 'Bearer ' + session; }
    return fetch(path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) { throw new Error(j.detail || j.code); } return j; }); });
  };
  var cell = function (row, text, numeric) {
    var td = row.insertCell(); td.textContent = text; if (numeric) { td.className = 'num'; } return td;
  };
  var button = function (td, label, action) {
    var b = document.createElement('button'); b.textContent = label; b.onclick = action; td.appendChild(b);
  };
  var order = function (body) {
    body.clientOrderId = crypto.randomUUID();
    say('Placing your order…');
    return api('POST', '/api/player/orders', body).then(function (t) {
      say(t.side + ' ' + t.outcome + ': ' + t.status + (t.failureReason ? ' (' + t.failureReason + ')' : '')
        + ', ' + t.shares + ' shares for ' + t.amount + ' ' + t.currency);
      return refresh();
    }).catch(function (e) { say(e.message); });
  };
  var refresh = function () {
    return Promise.all([api('GET', '/api/player/markets'), api('GET', '/api/player/positions')]).then(function (both) {
      var markets = document.getElementById('markets').tBodies[0];
      markets.replaceChildren();
      both[0].data.forEach(function (m) {
        var row = markets.insertRow();
        cell(row, m.question); cell(row, m.yesPrice, true); cell(row, m.noPrice, true);
        var td = row.insertCell(); var amount = document.createElement('input');
        amount.type = 'number'; amount.min = '1'; amount.value = '100'; td.appendChild(amount);
        ['yes', 'no'].forEach(function (outcome) {
          button(td, 'Buy ' + outcome.toUpperCase(), function () {
            order({ marketId: m.id, side: 'buy', outcome: outcome, kind: 'amount', value: String(amount.value) });
          });
        });
      });
      var positions = document.getElementById('positions').tBodies[0];
      positions.replaceChildren();
      (both[1].positions || []).forEach(function (p) {
        var row = positions.insertRow();
        cell(row, p.question); cell(row, p.yesShares, true); cell(row, p.noShares, true); cell(row, p.markValue, true);
        var td = row.insertCell();
        [['yes', p.yesShares], ['no', p.noShares]].forEach(function (held) {
          if (held[1] !== '0' && p.marketStatus === 'open') {
            button(td, 'Sell ' + held[0].toUpperCase(), function () {
              order({ marketId: p.marketId, side: 'sell', outcome: held[0], kind: 'shares', value: held[1] });
            });
          }
        });
      });
    });
  };
  var launch = /launch=([^&]+)/.exec(location.hash);
  var opened = launch
    ? api('POST', '/api/player/sessions', { launchToken: decodeURIComponent(launch[1]) }).then(function (s) {
        history.replaceState(null, '', location.pathname);
        sessionStorage.setItem('opinion.session', s.sessionToken);
        if (s.locale) { document.documentElement.lang = s.locale; }
      })
    : Promise.resolve();
  opened.then(function () {
    if (!sessionStorage.getItem('opinion.session')) { say('Open this page from your operator\u2019s site to play.'); return; }
    return refresh().then(function () { say(''); });
  }).catch(function (e) { say(e.message); });
})();"#;

/// The policy: the page's own script and style by hash, calls to this service only.
static POLICY: LazyLock<String> = LazyLock::new(|| {
    let hash = |text: &str| STANDARD.encode(Sha256::digest(text.as_bytes()));
    format!(
        "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; connect-src 'self'; \
         img-src 'none'; base-uri 'none'; form-action 'none'",
        hash(SCRIPT),
        hash(STYLE)
    )
});

/// The page's policy where it is served: on an operator's launch host, framed only by
/// that operator's origins (none when it named none); on the public host, which serves
/// every operator and cannot know which one before the token is exchanged, frameable by
/// the operators' sites as before.
fn policy_for(site: Option<&LaunchSite>) -> String {
    match site {
        Some(site) => format!("{}; frame-ancestors {}", *POLICY, site.frame_origins.frame_ancestors()),
        None => POLICY.clone(),
    }
}

/// The hosted app's page, with the policy of the host it is served on.
pub async fn play_page(state: web::Data<ApiState>, request: HttpRequest) -> Result<HttpResponse, ApiError> {
    let site = state.players.site_for_host(request_host(&request)).await?;
    Ok(page(&policy_for(site.as_ref())))
}

fn page(policy: &str) -> HttpResponse {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { "Opinion" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { "Opinion" }
                p #status { "Opening your session…" }
                h2 { "Markets" }
                table #markets {
                    thead { tr { th { "Question" } th { "YES" } th { "NO" } th { "Buy (amount)" } } }
                    tbody {}
                }
                h2 { "Your positions" }
                table #positions {
                    thead { tr { th { "Question" } th { "YES shares" } th { "NO shares" } th { "Value" } th {} } }
                    tbody {}
                }
                script { (PreEscaped(SCRIPT)) }
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

    #[test]
    fn the_policy_runs_exactly_the_pages_own_script_and_style() {
        let policy = POLICY.as_str();
        assert!(policy.contains(&STANDARD.encode(Sha256::digest(SCRIPT.as_bytes()))));
        assert!(policy.contains(&STANDARD.encode(Sha256::digest(STYLE.as_bytes()))));
        assert!(policy.contains("connect-src 'self'"));
        assert!(!policy.contains("unsafe"));
    }

    #[test]
    fn a_launch_host_names_its_frame_ancestors_and_the_public_host_none() {
        use opinion_core::OperatorId;
        use opinion_launch::FrameOrigins;

        assert!(!policy_for(None).contains("frame-ancestors"));
        let site = |origins: &[&str]| LaunchSite {
            operator_id: OperatorId::from_u128(1),
            frame_origins: FrameOrigins::parse(&origins.iter().map(|o| (*o).to_owned()).collect::<Vec<_>>())
                .expect("origins"),
        };
        assert!(policy_for(Some(&site(&[]))).ends_with("; frame-ancestors 'none'"));
        let framed = policy_for(Some(&site(&["https://casino.example", "https://m.casino.example"])));
        assert!(framed.starts_with(POLICY.as_str()));
        assert!(framed.ends_with("; frame-ancestors https://casino.example https://m.casino.example"));
    }

    #[test]
    fn the_script_never_writes_markup() {
        assert!(!SCRIPT.contains("innerHTML") && !SCRIPT.contains("outerHTML") && !SCRIPT.contains("document.write"));
    }
}
