//! The dashboard in a real browser: a member signs in, creates an API key (secret shown
//! once, with a copy button), registers a webhook endpoint and replays a delivery to it,
//! configures the wallet adapter and runs its full-contract test, creates a player's
//! portfolio link, sets the markets' visibility mode, runs a simulator scenario and a
//! user operation, sets the simulated user's balance and name, and signs out; a member with fewer scopes then neither
//! sees nor reaches what it lacks. Every page opens without a console error (a policy
//! violation is one) or a request leaving the service, and is kept as a screenshot under
//! `target/test-artefacts/dashboard/`.

use std::time::Duration;

use opinion_testkit::{FakeWallet, WebhookSink};
use opinion_testkit_browser::{Browser, Locator, WindowSize};

use super::support::{PASSWORD, member};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_support::{open_market, order, placed, player};
use crate::webhooks_support::{DISABLED, emit_events};

const SUITE: &str = "dashboard";

/// Drives one browser through the dashboard of one service.
struct Walk<'a> {
    app: &'a TestApp,
    browser: Browser,
}

impl Walk<'_> {
    async fn open(&self, path: &str) {
        self.browser.open(&format!("{}{path}", self.app.address)).await;
    }

    /// Waits until an element matches `css`.
    async fn element(&self, css: &str) {
        self.browser
            .client()
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|error| panic!("no `{css}` on the page: {error}"));
    }

    async fn fill(&self, id: &str, text: &str) {
        let css = format!("#{id}");
        self.element(&css).await;
        let field = self.browser.client().find(Locator::Css(&css)).await.expect("field");
        field.clear().await.expect("clear");
        field.send_keys(text).await.expect("typing");
    }

    async fn click(&self, css: &str) {
        self.element(css).await;
        let target = self.browser.client().find(Locator::Css(css)).await.expect("element");
        target.click().await.expect("click");
    }

    /// Submits the form of the button `css` and waits until the browser has replaced the
    /// page that held it, so the next step finds the answer's elements and not the
    /// same-named ones of the page being left.
    async fn submit(&self, css: &str) {
        self.element(css).await;
        let button = self.browser.client().find(Locator::Css(css)).await.expect("button");
        button.click().await.expect("submit");
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while button.tag_name().await.is_ok() {
            assert!(
                std::time::Instant::now() < deadline,
                "submitting `{css}` never left the page"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    async fn text(&self, css: &str) -> String {
        self.element(css).await;
        let target = self.browser.client().find(Locator::Css(css)).await.expect("element");
        target.text().await.expect("text")
    }

    async fn displayed(&self, css: &str) -> bool {
        self.element(css).await;
        let target = self.browser.client().find(Locator::Css(css)).await.expect("element");
        target.is_displayed().await.expect("visibility")
    }

    async fn path(&self) -> String {
        self.browser
            .client()
            .current_url()
            .await
            .expect("url")
            .path()
            .to_owned()
    }

    /// Checks the page is clean and keeps its screenshot.
    async fn shot(&self, name: &str) {
        self.browser.assert_no_console_errors(name).await;
        self.browser.assert_requests_stay_on(&self.app.address, name).await;
        self.browser.screenshot(name).await;
    }

    async fn sign_in(&self, email: &str) {
        self.open("/dashboard/sign-in").await;
        self.fill("email", email).await;
        self.fill("password", PASSWORD).await;
        self.submit("form.card button[type=submit]").await;
        self.element("nav.side").await;
    }

    async fn nav(&self) -> Vec<String> {
        let links = self
            .browser
            .run("return Array.from(document.querySelectorAll('nav.side a')).map(function (a) { return a.getAttribute('href'); });")
            .await;
        links
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|href| href.as_str().map(str::to_owned))
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_work_through_the_dashboard_and_a_restricted_member_is_kept_out() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "viewer@example.com", &["webhooks:read", "api_keys:read"]).await;
    let walk = Walk {
        app: &app,
        browser: Browser::start(SUITE).await,
    };

    walk.open("/dashboard").await;
    assert_eq!(
        walk.path().await,
        "/dashboard/sign-in",
        "no session: to the sign-in page"
    );
    walk.shot("sign-in").await;
    walk.sign_in("admin@example.com").await;
    assert_eq!(walk.text("main h1").await, "Overview");
    let hover = walk
        .browser
        .run("return document.querySelector('time') === null || document.querySelector('time').title.endsWith('UTC');")
        .await;
    assert_eq!(hover.as_bool(), Some(true), "UTC on hover");
    walk.shot("overview").await;

    walk.open("/dashboard/api-keys").await;
    walk.fill("name", "reporting server").await;
    walk.click("input[name=scopes][value='users:read']").await;
    walk.submit("form[action='/dashboard/api-keys'] button[type=submit]")
        .await;
    let secret = walk.text("#new-secret").await;
    assert!(secret.starts_with("opk_"), "{secret}");
    walk.click("button[data-copy=new-secret]").await;
    json_with_status(app.get("/api/operator/users", &secret).await, 200).await;
    walk.shot("api-keys-created").await;
    walk.click("a[aria-label='Revoke reporting server']").await;
    walk.element("section.confirm").await;
    walk.shot("api-key-revoke").await;
    walk.submit("section.confirm button[type=submit]").await;
    walk.element("span.badge.bad").await;
    assert_eq!(
        app.get("/api/operator/users", &secret).await.status(),
        401,
        "revoked once confirmed"
    );

    let sink = WebhookSink::start().await;
    walk.open("/dashboard/webhooks").await;
    walk.fill("url", &sink.url("dashboard")).await;
    walk.click(&format!("input[name=eventTypes][value='{DISABLED}']")).await;
    walk.submit("form[action='/dashboard/webhooks'] button[type=submit]")
        .await;
    assert!(walk.text("#new-secret").await.starts_with("whsec_"));
    walk.shot("webhooks-registered").await;
    walk.click("td.actions a").await;
    walk.element("a[href$='/rotate']").await;
    walk.shot("webhook-endpoint").await;

    emit_events(&app, 1).await;
    walk.open("/dashboard/deliveries").await;
    walk.click("article.delivery summary").await;
    walk.submit("article.delivery form button").await;
    walk.element("p.notice").await;
    let received = sink.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(received.len(), 1, "the replay reached the receiver");
    let answer = walk
        .text("article.delivery details[open] tbody tr:last-child td:nth-child(6)")
        .await;
    assert!(answer.starts_with('2'), "the receiver's status is shown: {answer}");
    walk.shot("deliveries-replayed").await;

    let wallet = FakeWallet::start_in("USD").await;
    wallet.set_balance("opinion-wallet-test", 10_000);
    walk.open("/dashboard/wallet").await;
    walk.fill("baseUrl", &wallet.url()).await;
    walk.submit("form[action='/dashboard/wallet'] button[type=submit]")
        .await;
    wallet.set_secret(&walk.text("#new-secret").await);
    walk.shot("wallet-configured").await;
    walk.submit("form[action='/dashboard/wallet/test'] button[type=submit]")
        .await;
    let verdict = walk.text("#report h2").await;
    walk.shot("wallet-test-report").await;
    let failed = walk.browser.run("return Array.from(document.querySelectorAll('#report li.step details[open] summary')).map(function (s) { return s.textContent; });").await;
    assert!(verdict.contains("passed"), "{verdict}: {failed}");
    let steps = walk
        .browser
        .run("return document.querySelectorAll('#report li.step').length;")
        .await;
    assert!(steps.as_u64().unwrap_or(0) > 5, "the report lists its steps: {steps}");
    walk.browser
        .run("document.querySelectorAll('#report details').forEach(function (d) { d.open = false; }); return null;")
        .await;
    walk.browser.screenshot("wallet-test-summary").await;

    let market = open_market(&app).await;
    let session = player(&app, "ana").await;
    wallet.set_balance("ana", 100_000);
    placed(&app, &session, &order("dashboard-1", market, "buy", "amount", 2_500)).await;
    walk.open("/dashboard").await;
    assert_eq!(walk.text("main h1").await, "Overview");
    let bars = walk
        .browser
        .run("return document.querySelectorAll('svg.chart rect.bar[height]:not([height=\"0\"])').length;")
        .await;
    assert_eq!(bars.as_u64(), Some(1), "today's volume is drawn");
    let hover = walk
        .browser
        .run("var t = document.querySelector('main time'); return t === null || t.title.endsWith('UTC');")
        .await;
    assert_eq!(hover.as_bool(), Some(true), "UTC on hover");
    walk.shot("overview").await;
    walk.open("/dashboard/users").await;
    walk.shot("players").await;
    walk.click("table a[href^='/dashboard/users/player']").await;
    walk.element("svg.chart, table").await;
    assert!(walk.text("main").await.contains("Trade history"));
    walk.shot("player").await;
    walk.submit("form[action='/dashboard/users/portfolio-link'] button[type=submit]")
        .await;
    let link = walk.text("#new-secret").await;
    assert!(
        link.starts_with(&format!("{}/views/portfolio?token=", app.address)),
        "{link}"
    );
    walk.shot("portfolio-link").await;
    walk.open("/dashboard/markets").await;
    walk.submit("form[action$='/visibility'] button").await;
    assert_eq!(walk.text("td .badge").await, "hidden");
    walk.shot("markets").await;
    walk.click("#mode option[value=allowlist]").await;
    walk.submit("form[action='/dashboard/markets/visibility-mode'] button[type=submit]")
        .await;
    assert!(walk.text("#visibility-mode p.notice").await.contains("allowlist"));
    walk.shot("markets-visibility-mode").await;
    for (path, name) in [
        ("/dashboard/trades", "trades"),
        ("/dashboard/resolutions", "resolutions"),
        ("/dashboard/redemptions", "redemptions"),
        ("/dashboard/balance-operations", "balance-operations"),
    ] {
        walk.open(path).await;
        walk.element("form.filters").await;
        walk.shot(name).await;
    }
    walk.open("/dashboard/staff").await;
    walk.fill("email", "support@example.com").await;
    walk.fill("name", "Support desk").await;
    walk.click("input[name=scopes][value='users:read']").await;
    walk.submit("form[action='/dashboard/staff'] button[type=submit]").await;
    assert_eq!(
        walk.text("#new-secret").await.len(),
        32,
        "a generated password, shown once"
    );
    walk.shot("staff").await;
    walk.click("td.actions a").await;
    walk.element("a[href$='/reset-password']").await;
    walk.shot("staff-member").await;

    walk.open("/dashboard/simulator").await;
    walk.fill("question", "Will the dashboard ship?").await;
    walk.submit("form[action='/dashboard/simulator/scenarios'] button[type=submit]")
        .await;
    assert!(walk.text("#report h2").await.contains("completed"));
    walk.fill("externalUserId", "sim-player-1").await;
    walk.fill("startingBalance", "50000").await;
    walk.submit("form[action='/dashboard/simulator'] button[type=submit]")
        .await;
    walk.shot("simulator").await;
    walk.click("table a[href^='/dashboard/simulator/users/']").await;
    walk.click("input[name=faults][value=timeout]").await;
    walk.submit("form[action^='/dashboard/simulator/users/'] button[type=submit]")
        .await;
    assert!(walk.text("#report h2").await.contains("launch"));
    walk.shot("simulator-operation").await;
    walk.fill("balance", "75000").await;
    walk.submit("form[action$='/balance'] button[type=submit]").await;
    walk.fill("displayName", "Simulated Sam").await;
    walk.submit("form[action$='/change'] button[type=submit]").await;
    assert!(walk.text("dl.facts").await.contains("Simulated Sam"));
    let simulated = json_with_status(
        app.get("/api/operator/simulator/wallets/sim-player-1", &app.operator.key)
            .await,
        200,
    )
    .await;
    assert_eq!(simulated["balance"], "75000", "{simulated}");
    walk.shot("simulator-user-settings").await;

    walk.submit("form.sign-out button").await;
    assert!(walk.text("p.notice").await.contains("signed out"));

    walk.sign_in("viewer@example.com").await;
    let nav = walk.nav().await;
    assert!(nav.contains(&"/dashboard/webhooks".to_owned()), "{nav:?}");
    for hidden in ["/dashboard/wallet", "/dashboard/simulator"] {
        assert!(!nav.contains(&hidden.to_owned()), "{hidden} is hidden: {nav:?}");
    }
    walk.open("/dashboard/api-keys").await;
    let forms = walk
        .browser
        .run("return document.querySelectorAll('main form, main a[href$=\"/revoke\"]').length;")
        .await;
    assert_eq!(
        forms.as_u64(),
        Some(0),
        "no create or revoke form without api_keys:write"
    );
    walk.open("/dashboard/wallet").await;
    assert_eq!(walk.text("main h1").await, "Not allowed");
    let logged = walk.browser.console().await;
    assert!(
        logged
            .iter()
            .all(|entry| entry.level != "SEVERE" || entry.message.contains("403")),
        "only the refusal's own status is logged: {logged:?}"
    );
    walk.browser.screenshot("restricted-refused").await;

    walk.browser.resize(WindowSize::PHONE).await;
    walk.open("/dashboard/deliveries").await;
    let overflow = walk
        .browser
        .run("return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
        .await;
    assert_eq!(overflow.as_i64(), Some(0), "the page fits a phone");
    walk.click("label.menu-label").await;
    assert!(walk.displayed("nav.side").await, "the menu opens the navigation");
    walk.shot("deliveries-phone").await;
    walk.browser.close().await;
}
