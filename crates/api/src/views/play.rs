//! `GET /play`: the hosted Opinion app an Opinion launch URL opens. After the shared
//! prelude has opened the session (a flight session is sent to `/play/flight`), the page
//! lists the markets on offer with their prices and the player's positions, and places
//! buys and sales through the player API. It renders everything with `textContent`,
//! never as markup.

use std::sync::LazyLock;

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

use crate::http::error::ApiError;
use crate::state::ApiState;
use crate::views::hosted::{Assets, BASE_STYLE, serve};

const SCRIPT: &str = r#"
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
  open(OPINION).then(function (mine) {
    if (mine) { return refresh().then(function () { say(''); }); }
  }).catch(function (e) { say(e.message); });
"#;

static ASSETS: LazyLock<Assets> = LazyLock::new(|| Assets::new(BASE_STYLE.to_owned(), SCRIPT));

/// The hosted Opinion app's page, with the policy of the host it is served on.
pub async fn play_page(state: web::Data<ApiState>, request: HttpRequest) -> Result<HttpResponse, ApiError> {
    let body = html! {
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
    };
    serve(&state, &request, &ASSETS, "Opinion", body).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_opens_an_opinion_session_and_never_writes_markup() {
        let script = ASSETS.script();
        assert!(script.contains("open(OPINION)"));
        assert!(!script.contains("innerHTML") && !script.contains("outerHTML") && !script.contains("document.write"));
    }
}
