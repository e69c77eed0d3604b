//! `GET /play/flight`: the hosted flight page a flight launch URL opens. After the shared
//! prelude has opened the session (an Opinion session is sent to `/play`), the page
//! listens to the live flight's event stream and animates the flight itself: the
//! multiplier climbs on the published curve `m(t) = floor(100·e^(0.00006·t))` from the
//! take-off instant, on the server's clock (corrected by each event's `serverTime`), until
//! the stream announces the crash. Nothing is asked of the server per frame, so a
//! thousand pages cost the server a thousand idle streams. The player buys tickets (with
//! an optional auto cash-out), cashes out, sees their tickets, the flight's other players
//! cashing out (anonymised: multiplier and payout band, with the counts of players aboard
//! and cashed out, from the stream's `cashouts` events) and the fairness data of past
//! flights, and for each settled ticket a button that reads its inclusion proof in the
//! month's signed statement (shown, and saved as a file; "not yet available" until the
//! statement is finalized); every value is written with `textContent`, never as markup.

use std::sync::LazyLock;

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

use crate::http::error::ApiError;
use crate::state::ApiState;
use crate::views::hosted::{Assets, BASE_STYLE, serve};

const STYLE: &str = "\
#multiplier{font-size:3rem;font-weight:700;font-variant-numeric:tabular-nums;margin:.5rem 0}\
#phase{color:#5b6475;min-height:1.5rem}#buying{background:#fff;padding:.75rem;margin-bottom:1.5rem}\
#buying input{width:8rem;margin-right:.75rem}code{font-size:.75rem;word-break:break-all}\
#crowd{color:#5b6475}#cashouts{list-style:none;padding:0;margin:0 0 1.5rem;max-height:12rem;overflow:hidden}\
#cashouts li{font-variant-numeric:tabular-nums}#cashouts li.mine{font-weight:700}\
#proof{background:#fff;padding:.75rem;font-size:.75rem;white-space:pre-wrap;word-break:break-all}";

const SCRIPT: &str = r#"
  var PAGE = 20, LISTED = 20, SETTLED = ['cashed_out', 'lost', 'refunding', 'refunded'];
  var offset = 0, live = null, tickets = [], flights = [], next = null, shown = '';
  var multiplier = document.getElementById('multiplier'), phase = document.getElementById('phase');
  var hundredths = function (m) { return Math.floor(m / 100) + '.' + ('0' + (m % 100)).slice(-2); };
  var curve = function (t) { return t <= 0 ? 100 : Math.floor(100 * Math.exp(0.00006 * t)); };
  var frame = function () {
    var big = '\u2014', small = 'Waiting for the first flight\u2026';
    if (live) {
      var now = Date.now() + offset, takeOff = Date.parse(live.takeOffAt);
      small = 'Flight ' + live.number;
      if (live.phase === 'crashed') { big = live.crashPoint + '\u00d7'; small += ': crashed'; }
      else if (live.phase === 'cancelled') { big = '\u2014'; small += ': cancelled, every ticket refunded'; }
      else if (live.phase === 'boarding' && now < takeOff) { big = '1.00\u00d7'; small += ': boarding, take-off in ' + ((takeOff - now) / 1000).toFixed(1) + ' s'; }
      else { big = hundredths(curve(now - takeOff)) + '\u00d7'; small += ': in the air'; }
    }
    if (big + small !== shown) { multiplier.textContent = big; phase.textContent = small; shown = big + small; }
    requestAnimationFrame(frame);
  };
  var showTickets = function () {
    var body = document.getElementById('tickets').tBodies[0];
    body.replaceChildren();
    tickets.forEach(function (t) {
      var row = body.insertRow();
      cell(row, new Date(t.createdAt).toLocaleTimeString()); cell(row, t.stake + ' ' + t.currency, true);
      cell(row, t.autoCashOut ? t.autoCashOut + '\u00d7' : '\u2014', true); cell(row, t.status);
      cell(row, t.cashOut ? t.cashOut + '\u00d7' : '', true); cell(row, t.payout || '', true);
      var td = row.insertCell();
      if (t.status === 'active' && live && live.id === t.flightId && live.phase !== 'crashed') {
        button(td, 'Cash out', function () { cashOut(t); });
      }
      if (SETTLED.indexOf(t.status) >= 0) { button(td, 'Proof', function () { showProof(t); }); }
    });
  };
  var showProof = function (t) {
    say('Reading the proof of your ticket\u2026');
    return api('GET', '/api/player/flight/tickets/' + encodeURIComponent(t.id) + '/proof').then(function (p) {
      var text = JSON.stringify(p, null, 2), save = document.getElementById('proofsave');
      document.getElementById('proofabout').textContent = 'Your ticket ' + t.id + ' is line ' + (p.leafIndex + 1)
        + ' of ' + p.treeSize + ' of its statement, under root ' + p.merkleRoot + '.';
      document.getElementById('proof').textContent = text;
      if (save.href) { URL.revokeObjectURL(save.href); }
      save.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      save.download = 'ticket-proof-' + t.id + '.json';
      document.getElementById('proofs').hidden = false;
      say('');
    }).catch(function (e) {
      say(e.code === 'proof_not_available'
        ? 'The proof of this ticket is not yet available: it is made when the month\u2019s statement is finalized.'
        : e.message);
    });
  };
  var loadTickets = function () {
    return api('GET', '/api/player/flight/tickets').then(function (page) { tickets = page.data; showTickets(); });
  };
  var cashOut = function (t) {
    say('Cashing out\u2026');
    return api('POST', '/api/player/flight/tickets/' + encodeURIComponent(t.id) + '/cash-out').then(function (done) {
      say(done.status === 'cashed_out' ? 'Cashed out at ' + done.cashOut + '\u00d7: ' + done.payout + ' ' + done.currency
        : 'Too late: the ticket is ' + done.status);
      return loadTickets();
    }).catch(function (e) { say(e.message); });
  };
  var buy = function () {
    var body = { clientTicketId: crypto.randomUUID(), stake: String(document.getElementById('stake').value) };
    var auto = document.getElementById('auto').value.trim();
    if (auto) { body.autoCashOut = auto; }
    say('Buying your ticket\u2026');
    return api('POST', '/api/player/flight/tickets', body).then(function (t) {
      say('Ticket for ' + t.stake + ' ' + t.currency + ': ' + t.status);
      return loadTickets();
    }).catch(function (e) { say(e.message); });
  };
  var showFlights = function () {
    var body = document.getElementById('flights').tBodies[0];
    body.replaceChildren();
    flights.forEach(function (f) {
      var row = body.insertRow();
      cell(row, String(f.number), true); cell(row, f.crashPoint + '\u00d7', true);
      [f.seed, f.commitment, f.salt].forEach(function (text) {
        var code = document.createElement('code'); code.textContent = text; row.insertCell().appendChild(code);
      });
    });
    document.getElementById('older').hidden = !next;
  };
  var loadFlights = function (older) {
    var path = '/api/player/flight/flights' + '?limit=' + PAGE + (older && next ? '&cursor=' + encodeURIComponent(next) : '');
    return api('GET', path).then(function (page) {
      flights = older ? flights.concat(page.data) : page.data; next = page.nextCursor; showFlights();
    }).catch(function (e) { say(e.message); });
  };
  var revealed = function (f) {
    var newest = flights[0];
    if (newest && newest.id !== f.id && newest.number === f.number - 1) {
      flights.unshift({ id: f.id, number: f.number, crashPoint: f.crashPoint, seed: f.revealedSeed,
        commitment: newest.commitment, salt: newest.salt });
      showFlights();
    }
  };
  var onFlight = function (f) {
    var before = live;
    live = f;
    if (!f) { return; }
    offset = Date.parse(f.serverTime) - Date.now();
    var ended = f.phase === 'crashed' || f.phase === 'cancelled';
    var same = before && before.id === f.id;
    if (ended && !(same && before.phase === f.phase)) {
      var held = tickets.some(function (t) { return t.flightId === f.id; });
      if (held) { setTimeout(loadTickets, 1000 + Math.random() * 2000); }
    }
    if (f.revealedSeed && !(same && before.revealedSeed)) { revealed(f); }
    showTickets();
  };
  var onCashOuts = function (c) {
    var list = document.getElementById('cashouts');
    if (c.reset) { list.replaceChildren(); }
    c.cashOuts.forEach(function (o) {
      var item = document.createElement('li');
      item.textContent = o.multiplier + '\u00d7 \u2014 ' + o.payoutAtLeast + '+ IDR' + (o.mine ? ' (you)' : '');
      if (o.mine) { item.className = 'mine'; }
      list.insertBefore(item, list.firstChild);
    });
    while (list.children.length > LISTED) { list.removeChild(list.lastChild); }
    document.getElementById('crowd').textContent = c.players + ' players aboard, ' + c.cashedOut + ' of '
      + c.tickets + ' tickets cashed out';
  };
  var onEvent = function (text) {
    var name = '', data = null;
    text.split('\n').forEach(function (line) {
      if (line.indexOf('event: ') === 0) { name = line.slice(7); }
      if (line.indexOf('data: ') === 0) { data = (data === null ? '' : data + '\n') + line.slice(6); }
    });
    if (name === 'flight' && data !== null) { onFlight(JSON.parse(data)); }
    if (name === 'cashouts' && data !== null) { onCashOuts(JSON.parse(data)); }
  };
  var listen = function (delay) {
    var headers = { Authorization: 'Bearer ' + sessionStorage.getItem('opinion.session') };
    fetch('/api/player/flight/live', { headers: headers, cache: 'no-store' }).then(function (r) {
      if (r.status === 401) { throw new Error('ended'); }
      if (!r.ok || !r.body) { throw new Error('unavailable'); }
      var reader = r.body.getReader(), decoder = new TextDecoder(), buffer = '';
      delay = 1000;
      var pump = function () {
        return reader.read().then(function (chunk) {
          if (chunk.done) { return; }
          buffer += decoder.decode(chunk.value, { stream: true });
          var events = buffer.split('\n\n'); buffer = events.pop();
          events.forEach(onEvent);
          return pump();
        });
      };
      return pump();
    }).then(function () { return delay; }, function (e) {
      if (e.message === 'ended') { say('Your session has ended: open the game again from your operator\u2019s site.'); return null; }
      return Math.min(delay * 2, 30000);
    }).then(function (wait) {
      if (wait !== null) { setTimeout(function () { listen(wait); }, wait + Math.random() * 1000); }
    });
  };
  open(FLIGHT).then(function (mine) {
    if (!mine) { return; }
    document.getElementById('buy').onclick = buy;
    document.getElementById('older').onclick = function () { loadFlights(true); };
    document.getElementById('refresh').onclick = function () { loadFlights(false); };
    requestAnimationFrame(frame);
    listen(1000);
    return Promise.all([loadTickets(), loadFlights(false)]).then(function () { say(''); });
  }).catch(function (e) { say(e.message); });
"#;

static ASSETS: LazyLock<Assets> = LazyLock::new(|| Assets::new(format!("{BASE_STYLE}{STYLE}"), SCRIPT));

/// The hosted flight page, with the policy of the host it is served on.
pub async fn flight_page(state: web::Data<ApiState>, request: HttpRequest) -> Result<HttpResponse, ApiError> {
    let body = html! {
        p #multiplier { "—" }
        p #phase {}
        p #crowd {}
        ul #cashouts {}
        div #buying {
            label { "Stake (IDR) " input #stake type="number" min="1" step="1" value="10000"; }
            label { "Auto cash-out at " input #auto type="text" inputmode="decimal" placeholder="e.g. 2.00"; }
            button #buy type="button" { "Buy a ticket" }
        }
        h2 { "Your tickets" }
        table #tickets {
            thead { tr { th { "Bought" } th { "Stake" } th { "Auto cash-out" } th { "Status" } th { "Cashed out at" } th { "Payout (IDR)" } th {} } }
            tbody {}
        }
        section #proofs hidden {
            h2 { "Your ticket's proof" }
            p #proofabout {}
            p {
                "This proof shows that your ticket is counted in your operator's signed monthly statement, "
                "without naming any other player. Check it against that statement with the script of the "
                "operator's documentation (\"How to verify a ticket's proof\")."
            }
            a #proofsave href="#" { "Save the proof" }
            pre #proof {}
        }
        h2 { "Past flights: fairness data" }
        p {
            "Every crash point was fixed before its flight boarded. Check any flight: SHA-256 of its seed, "
            "applied as many times as its number, gives the chain's commitment, published before the chain's "
            "first flight at " code { "/api/public/flight/chains" } "; and its crash point is "
            code { "max(100, floor(99·2^52 / (2^52 − X)))" } " hundredths, X being the first 13 hexadecimal digits "
            "of HMAC-SHA256(key = seed, message = salt). The operator's documentation (\"How to verify a flight\") "
            "has the whole method and a script that checks these rows."
        }
        button #refresh type="button" { "Refresh" }
        table #flights {
            thead { tr { th { "Flight" } th { "Crash point" } th { "Seed" } th { "Commitment" } th { "Salt" } } }
            tbody {}
        }
        button #older type="button" hidden { "Older flights" }
    };
    serve(&state, &request, &ASSETS, "Flight", body).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_opens_a_flight_session_and_never_writes_markup() {
        let script = ASSETS.script();
        assert!(script.contains("open(FLIGHT)"));
        assert!(!script.contains("innerHTML") && !script.contains("outerHTML") && !script.contains("document.write"));
    }

    #[test]
    fn the_page_computes_the_published_curve_and_asks_nothing_per_frame() {
        let frame = SCRIPT
            .split("var frame = function () {")
            .nth(1)
            .and_then(|rest| rest.split("var showTickets").next())
            .expect("the frame function");
        assert!(SCRIPT.contains("Math.floor(100 * Math.exp(0.00006 * t))"));
        assert!(!frame.contains("api(") && !frame.contains("fetch("));
    }

    #[test]
    fn a_settled_ticket_links_its_proof_and_says_when_there_is_none_yet() {
        let shown = SCRIPT
            .split("var showProof = function (t) {")
            .nth(1)
            .and_then(|rest| rest.split("var loadTickets").next())
            .expect("the proof function");
        assert!(shown.contains("'/api/player/flight/tickets/' + encodeURIComponent(t.id) + '/proof'"));
        assert!(shown.contains("e.code === 'proof_not_available'") && shown.contains("not yet available"));
        assert!(shown.contains(".textContent = text"));
        assert!(SCRIPT.contains("if (SETTLED.indexOf(t.status) >= 0) { button(td, 'Proof'"));
    }

    #[test]
    fn other_players_cash_outs_are_written_as_text_from_the_stream() {
        let shown = SCRIPT
            .split("var onCashOuts = function (c) {")
            .nth(1)
            .and_then(|rest| rest.split("var onEvent").next())
            .expect("the cash-outs function");
        assert!(shown.contains("item.textContent = "));
        assert!(!shown.contains("api(") && !shown.contains("fetch("));
        assert!(SCRIPT.contains("name === 'cashouts'"));
    }
}
