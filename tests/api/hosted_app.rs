//! The hosted Opinion app in headless Chromium, as a player meets it on a phone
//! (390×844) and on a laptop: open the launch URL, see the operator's brand and the
//! wallet's balance, browse and search the markets, open one (chart, rules, ticket), get
//! a live quote, buy and see the balance move, sell from the portfolio, read the history;
//! then a buy the wallet refuses for lack of funds and one whose answer is ambiguous
//! (under review), each with the message the player can act on; and a resolved market's
//! result and payout in the portfolio. No console error, no request leaves the service,
//! and on every view each control is reachable by keyboard and named for a screen
//! reader; screenshots under `target/test-artefacts/hosted-app/`.

use std::time::{Duration, Instant};

use opinion_market::Resolution;
use opinion_testkit::{FakeWallet, Fault};
use opinion_testkit_browser::{Browser, Locator, WindowSize};
use serde_json::json;

use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_support::{open_market, order, placed, player, wallet};

const SUITE: &str = "hosted-app";

/// Waits up to ten seconds for an element matching `css`; returns its text.
async fn text_of(browser: &Browser, css: &str) -> String {
    let element = browser
        .client()
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|error| panic!("no `{css}` appeared: {error}"));
    element
        .text()
        .await
        .unwrap_or_else(|error| panic!("`{css}` has no text: {error}"))
}

async fn click(browser: &Browser, css: &str) {
    text_of(browser, css).await;
    let element = browser.client().find(Locator::Css(css)).await.expect("element");
    element
        .click()
        .await
        .unwrap_or_else(|error| panic!("cannot click `{css}`: {error}"));
}

async fn type_into(browser: &Browser, css: &str, text: &str) {
    text_of(browser, css).await;
    let element = browser.client().find(Locator::Css(css)).await.expect("element");
    element.clear().await.expect("clear");
    element
        .send_keys(text)
        .await
        .unwrap_or_else(|error| panic!("cannot type into `{css}`: {error}"));
}

/// Waits up to ten seconds until the text of `css` starts with `start`; returns it.
async fn text_starting(browser: &Browser, css: &str, start: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text = text_of(browser, css).await;
        if text.starts_with(start) {
            return text;
        }
        assert!(Instant::now() < deadline, "`{css}` stayed `{text}`, not `{start}…`");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A full-page screenshot from the top, as `<size>-<name>.png`.
async fn screenshot(browser: &Browser, size: WindowSize, name: &str) {
    browser.run("window.scrollTo(0, 0); return null;").await;
    browser.screenshot(&format!("{}-{name}", size.name)).await;
}

/// Waits until the balance in the header differs from `before`; returns it.
/// How many visible controls the page has, and `(what, why)` for each one a keyboard cannot
/// reach (taken out of the tab order, or a clickable element that is no control) or a
/// screen reader cannot name (no text, `aria-label`, `aria-labelledby`, `title` or
/// `<label>`), and each image without `alt`.
const UNREACHABLE_OR_UNNAMED: &str = r#"
const visible = (node) => node.getClientRects().length > 0;
const named = (node) => (node.getAttribute('aria-label') || '').trim()
  || node.getAttribute('aria-labelledby')
  || (node.getAttribute('title') || '').trim()
  || (node.id && document.querySelector('label[for="' + node.id + '"]'))
  || node.closest('label')
  || (node.tagName !== 'INPUT' && node.tagName !== 'SELECT' && node.tagName !== 'TEXTAREA' && node.textContent.trim());
const found = [];
let checked = 0;
for (const node of document.querySelectorAll('a[href], button, input, select, textarea, [role=button], [role=tab], [onclick]')) {
  if (!visible(node) || node.type === 'hidden') continue;
  checked += 1;
  const what = node.outerHTML.slice(0, 80);
  if (node.tabIndex < 0) found.push([what, 'out of the tab order']);
  if (!named(node)) found.push([what, 'no accessible name']);
}
for (const image of document.querySelectorAll('img')) {
  if (visible(image) && !image.hasAttribute('alt')) found.push([image.outerHTML.slice(0, 80), 'no alt']);
}
return { checked, found };
"#;

/// Fails with the controls of the current view a keyboard or a screen reader would miss.
async fn assert_accessible(browser: &Browser, view: &str) {
    let seen = browser.run(UNREACHABLE_OR_UNNAMED).await;
    assert!(
        seen["checked"].as_u64().is_some_and(|checked| checked >= 3),
        "{view}: {seen}"
    );
    assert_eq!(
        seen["found"],
        json!([]),
        "{view}: controls a keyboard or screen reader misses"
    );
}

async fn balance_other_than(browser: &Browser, before: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = text_of(browser, "#balance").await;
        if now != before && now != "…" {
            return now;
        }
        assert!(Instant::now() < deadline, "the balance stayed {before}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn brand(app: &TestApp) {
    let body = json!({
        "name": "Kasino Merah", "primaryColor": "#b91c1c", "accentColor": "#111827", "defaultLanguage": "en",
    });
    let response = app
        .request(reqwest::Method::PUT, "/api/operator/branding", Some(&app.operator.key))
        .json(&body)
        .send()
        .await
        .expect("request");
    json_with_status(response, 200).await;
}

/// Launches `player` and opens the launch URL in a fresh document.
async fn launch(app: &TestApp, browser: &Browser, player: &str, locale: &str) {
    let launched = json_with_status(
        app.post(
            "/api/operator/launch",
            &app.operator.key,
            &json!({"externalUserId": player, "locale": locale}),
        )
        .await,
        201,
    )
    .await;
    browser.open("about:blank").await;
    browser.open(launched["launchUrl"].as_str().expect("launchUrl")).await;
}

/// Opens the first market and asks for a quote of `amount`; waits for the quote.
async fn quote(browser: &Browser, amount: &str) -> String {
    click(browser, "#market-list a.card").await;
    text_of(browser, "svg.chart path.line").await;
    type_into(browser, "#amount", amount).await;
    text_of(browser, "#quote dl").await
}

async fn story(size: WindowSize, wallet: &FakeWallet, app: &TestApp, browser: &Browser) {
    let player = format!("ana-{}", size.name);
    wallet.set_balance(&player, 100_000);
    launch(app, browser, &player, "en-US").await;

    let first = text_of(browser, "#market-list a.card").await;
    assert!(first.contains("Will it rain in Jakarta"), "{first}");
    assert_eq!(text_of(browser, "#brand-name").await, "Kasino Merah");
    let before = balance_other_than(browser, "…").await;
    assert_eq!(before, "$1,000.00");
    type_into(browser, "#search", "snow").await;
    assert_eq!(text_of(browser, "#market-list li").await, "No market matches.");
    type_into(browser, "#search", "rain").await;
    screenshot(browser, size, "1-markets").await;
    assert_accessible(browser, "the market list").await;

    let quoted = quote(browser, "50").await;
    for label in [
        "Shares",
        "Average price",
        "Payout if right",
        "Fee (included)",
        "Most you pay (slippage 2%)",
    ] {
        assert!(quoted.contains(label), "{label} in {quoted}");
    }
    screenshot(browser, size, "2-quote").await;
    assert_accessible(browser, "a market and its ticket").await;
    click(browser, "#buy").await;
    let bought = text_of(browser, "#outcome.good").await;
    assert!(bought.starts_with("Done: you bought"), "{bought}");
    let after = balance_other_than(browser, &before).await;
    screenshot(browser, size, "3-bought").await;

    click(browser, "nav.tabs a[data-tab=portfolio]").await;
    text_of(browser, ".actions button").await;
    assert_accessible(browser, "the portfolio").await;
    click(browser, ".actions button").await;
    text_starting(browser, ".actions button", "Confirm: receive").await;
    click(browser, ".actions button").await;
    let sold = text_of(browser, "#status.good").await;
    assert!(sold.starts_with("Done: you sold"), "{sold}");
    balance_other_than(browser, &after).await;
    screenshot(browser, size, "4-sold").await;

    click(browser, "nav.tabs a[data-tab=history]").await;
    text_of(browser, "#history .badge").await;
    let history = browser
        .run("return document.querySelectorAll('#history li').length;")
        .await;
    assert_eq!(history.as_i64(), Some(2), "a buy and a sale");
    screenshot(browser, size, "5-history").await;

    let poor = format!("bo-{}", size.name);
    wallet.set_balance(&poor, 1_000);
    launch(app, browser, &poor, "en-US").await;
    quote(browser, "50").await;
    click(browser, "#buy").await;
    let refused = text_of(browser, "#outcome.bad").await;
    assert!(refused.contains("not enough funds"), "{refused}");
    screenshot(browser, size, "6-refused").await;

    let unlucky = format!("cara-{}", size.name);
    wallet.set_balance(&unlucky, 100_000);
    wallet.fail_next(&unlucky, Fault::ServerError(503));
    launch(app, browser, &unlucky, "id-ID").await;
    text_starting(browser, "nav.tabs a[data-tab=markets]", "Pasar").await;
    quote(browser, "50").await;
    click(browser, "#buy").await;
    let review = text_of(browser, "#outcome.review").await;
    assert!(
        review.contains("sedang ditinjau") && review.contains("aman"),
        "{review}"
    );
    screenshot(browser, size, "7-review-id").await;

    if size == WindowSize::PHONE {
        let overflow = browser
            .run("return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
            .await;
        assert_eq!(overflow.as_i64(), Some(0), "the app is wider than a phone");
    }
    browser.assert_no_console_errors(size.name).await;
    browser.assert_requests_stay_on(&app.address, size.name).await;
}

/// A player holding YES shares when a market resolves YES sees the result, the payout and
/// that it was paid. (A market with a trade in review cannot be resolved, so it is another.)
async fn resolved(wallet: &FakeWallet, app: &TestApp, browser: &Browser) {
    let market = open_market(app).await;
    wallet.set_balance("dee", 100_000);
    let session = player(app, "dee").await;
    let bought = placed(app, &session, &order("dee-1", market, "buy", "shares", 3_000)).await;
    assert_eq!(bought["status"], "executed", "{bought}");
    app.settlement
        .resolve_market(market, Resolution::Yes)
        .await
        .expect("resolved");
    app.settlement.run_wallet_pass().await.expect("pass");
    launch(app, browser, "dee", "en").await;
    text_of(browser, "#status:empty").await;
    click(browser, "nav.tabs a[data-tab=portfolio]").await;
    let paid = text_of(browser, ".badge.executed").await;
    assert!(paid.starts_with("Paid "), "{paid}");
    let card = text_of(browser, "main .card").await;
    assert!(card.contains("Result: Yes") && card.contains("Payout $30.00"), "{card}");
    screenshot(browser, WindowSize::LAPTOP, "8-resolved").await;
    browser.assert_no_console_errors("resolved").await;
}

#[tokio::test]
async fn a_player_browses_quotes_buys_sells_and_meets_a_refusal_and_a_review() {
    let app = spawn_app().await;
    brand(&app).await;
    open_market(&app).await;
    let wallet = wallet(&app).await;
    let browser = Browser::start(SUITE).await;
    for size in [WindowSize::PHONE, WindowSize::LAPTOP] {
        browser.resize(size).await;
        story(size, &wallet, &app, &browser).await;
    }
    resolved(&wallet, &app, &browser).await;
    browser.close().await;
}
