//! The documentation site as an operator's browser sees it: every page of the navigation
//! opens without a console error (a policy violation is one) and without a request
//! leaving the service; every link between pages leads to a page that answers 200 and to
//! a heading that exists on it; each page is readable at laptop and phone size (kept as
//! screenshots under `target/test-artefacts/docs-site/`); the phone menu opens; search
//! finds a section and leads to it; the playground sends a real request with a pasted key
//! and keeps the key nowhere. And over plain HTTP: the pages' headers, the 404 page, the
//! index, and a playground that is read-only in production.

use std::collections::{BTreeMap, BTreeSet};

use opinion_testkit_browser::{Browser, Locator, WindowSize};
use reqwest::Method;
use serde_json::Value;

use crate::helpers::{TestApp, spawn_app, spawn_production_app};

const SUITE: &str = "docs-site";

/// Every `href` of the current page's elements matching `selector`.
async fn hrefs(browser: &Browser, selector: &str) -> Vec<String> {
    let script = format!(
        "return Array.from(document.querySelectorAll(\"{selector}\")).map(function (a) {{ return a.getAttribute('href'); }});"
    );
    browser
        .run(&script)
        .await
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|href| href.as_str().map(str::to_owned))
        .collect()
}

/// The ids of the elements of an HTML document.
fn ids(html: &str) -> BTreeSet<String> {
    html.split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

/// A file name for the page at `path`.
fn shot_name(path: &str, size: WindowSize) -> String {
    let name = path.trim_start_matches("/docs").trim_matches('/').replace('/', "_");
    format!("{}-{}", if name.is_empty() { "index" } else { &name }, size.name)
}

/// Fetches each linked page once: its status and its ids.
async fn fetched(
    app: &TestApp,
    cache: &mut BTreeMap<String, (u16, BTreeSet<String>)>,
    path: &str,
) -> (u16, BTreeSet<String>) {
    if let Some(known) = cache.get(path) {
        return known.clone();
    }
    let response = app
        .request(Method::GET, path, None)
        .send()
        .await
        .expect("the page answers");
    let status = response.status().as_u16();
    let found = (status, ids(&response.text().await.unwrap_or_default()));
    cache.insert(path.to_owned(), found.clone());
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_opens_cleanly_links_hold_and_search_leads_to_a_section() {
    let app = spawn_app().await;
    let browser = Browser::start(SUITE).await;
    browser.open(&format!("{}/docs", app.address)).await;
    let pages = hrefs(&browser, "nav.side a").await;
    assert!(pages.len() > 20, "the navigation lists the site: {pages:?}");

    let mut links = BTreeSet::new();
    for path in &pages {
        for size in [WindowSize::LAPTOP, WindowSize::PHONE] {
            browser.resize(size).await;
            browser.open(&format!("{}{path}", app.address)).await;
            browser.assert_no_console_errors(path).await;
            browser.assert_requests_stay_on(&app.address, path).await;
            browser.screenshot(&shot_name(path, size)).await;
            if size == WindowSize::PHONE {
                let overflow = browser
                    .run("return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
                    .await;
                assert_eq!(overflow.as_i64(), Some(0), "{path} is wider than a phone");
            }
        }
        links.extend(
            hrefs(&browser, "a[href^='/docs']")
                .await
                .into_iter()
                .map(|href| (path.clone(), href)),
        );
    }

    let mut cache = BTreeMap::new();
    for (from, link) in &links {
        let (path, fragment) = link.split_once('#').unwrap_or((link, ""));
        let (status, ids) = fetched(&app, &mut cache, path).await;
        assert_eq!(status, 200, "{from} links to {link}");
        assert!(
            fragment.is_empty() || ids.contains(fragment),
            "{from} links to {link}: no such heading"
        );
    }

    browser.resize(WindowSize::PHONE).await;
    browser.open(&format!("{}/docs", app.address)).await;
    let nav = browser
        .client()
        .find(Locator::Css("nav.side"))
        .await
        .expect("a navigation");
    assert!(
        !nav.is_displayed().await.expect("visibility"),
        "the phone navigation starts closed"
    );
    browser
        .client()
        .find(Locator::Css("label.menu-label"))
        .await
        .expect("a menu button")
        .click()
        .await
        .expect("click");
    assert!(
        nav.is_displayed().await.expect("visibility"),
        "the menu opens the navigation"
    );

    browser.resize(WindowSize::LAPTOP).await;
    browser.open(&format!("{}/docs", app.address)).await;
    let search = browser
        .client()
        .find(Locator::Id("search"))
        .await
        .expect("a search box");
    search.send_keys("dead letter replay").await.expect("typing");
    let first = browser
        .client()
        .wait()
        .for_element(Locator::Css("#results a"))
        .await
        .expect("search finds something");
    let target = first
        .attr("href")
        .await
        .expect("href")
        .expect("a result links somewhere");
    browser.screenshot("search-laptop").await;
    first.click().await.expect("click");
    let url = browser.client().current_url().await.expect("url");
    assert_eq!(
        format!(
            "{}{}",
            url.path(),
            url.fragment().map(|f| format!("#{f}")).unwrap_or_default()
        ),
        target
    );
    let fragment = url.fragment().expect("the result names a section");
    browser
        .client()
        .find(Locator::Id(fragment))
        .await
        .expect("the section the result names is on the page");
    browser.assert_no_console_errors("search").await;
    browser.assert_requests_stay_on(&app.address, "search").await;

    browser.open(&format!("{}/docs/playground", app.address)).await;
    let client = browser.client();
    let key = client.find(Locator::Id("try-key")).await.expect("a key field");
    key.send_keys(&app.operator.key).await.expect("typing");
    let route = client.find(Locator::Id("try-route")).await.expect("a route list");
    route
        .select_by_value("GET /api/operator/markets")
        .await
        .expect("the markets route is offered");
    client
        .find(Locator::Css("#try button"))
        .await
        .expect("a send button")
        .click()
        .await
        .expect("click");
    client
        .wait()
        .for_element(Locator::XPath("//p[@id='try-status'][starts-with(., '200')]"))
        .await
        .expect("the request answers 200");
    let answer = client
        .find(Locator::Id("try-answer"))
        .await
        .expect("an answer")
        .text()
        .await
        .expect("text");
    assert!(answer.contains("\"data\""), "{answer}");
    let kept = browser
        .run("return localStorage.length + sessionStorage.length + document.cookie.length;")
        .await;
    assert_eq!(kept.as_i64(), Some(0), "the key is kept nowhere but in the page");
    browser.screenshot("playground-answered-laptop").await;
    browser.assert_no_console_errors("playground").await;
    browser.assert_requests_stay_on(&app.address, "playground").await;
    browser.close().await;
}

#[tokio::test]
async fn pages_carry_a_strict_policy_and_unknown_pages_answer_a_docs_404() {
    let app = spawn_app().await;
    let page = app
        .request(Method::GET, "/docs/webhooks", None)
        .send()
        .await
        .expect("answers");
    assert_eq!(page.status(), 200);
    let headers = page.headers();
    let policy = headers["content-security-policy"].to_str().expect("ascii");
    assert!(policy.starts_with("default-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe"), "{policy}");
    assert_eq!(headers["cache-control"], "public, max-age=300");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let body = page.text().await.expect("a body");
    assert!(!body.contains("<script>"), "no inline script");
    assert!(!body.contains("<style"), "no inline style");
    assert!(body.contains("<h2 id=\"retries\">"));

    let stylesheet = body
        .split("href=\"")
        .filter_map(|rest| rest.split('"').next())
        .find(|href| href.starts_with("/docs/assets/docs.css?v="))
        .expect("the stylesheet by its hashed address")
        .to_owned();
    let asset = app
        .request(Method::GET, &stylesheet, None)
        .send()
        .await
        .expect("answers");
    assert_eq!(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert!(
        asset.headers()["content-type"]
            .to_str()
            .expect("ascii")
            .starts_with("text/css")
    );

    let missing = app
        .request(Method::GET, "/docs/no-such-page", None)
        .send()
        .await
        .expect("answers");
    assert_eq!(missing.status(), 404);
    assert!(missing.text().await.expect("a body").contains("Page not found"));

    let posted = app.request(Method::POST, "/docs", None).send().await.expect("answers");
    assert_eq!(posted.status(), 405);

    let index: Value = app
        .request(Method::GET, "/docs/search-index.json", None)
        .send()
        .await
        .expect("answers")
        .json()
        .await
        .expect("JSON");
    assert!(
        index
            .as_array()
            .expect("a list")
            .iter()
            .any(|entry| entry["u"] == "/docs/reference/errors#problem-codes")
    );

    let script = app
        .request(Method::GET, "/docs/files/verify_flight.py", None)
        .send()
        .await
        .expect("answers");
    assert_eq!(script.status(), 200);
    assert!(script.text().await.expect("a body").contains("def "));
}

/// The playground page as `app` serves it.
async fn playground(app: &TestApp) -> String {
    let page = app
        .request(Method::GET, "/docs/playground", None)
        .send()
        .await
        .expect("answers");
    page.text().await.expect("a body")
}

#[tokio::test]
async fn the_playground_says_where_it_sends_reads_only() {
    let body = playground(&spawn_app().await).await;
    assert!(body.contains("<option value=\"POST /api/operator/launch\">"));
    assert!(!body.contains("read_write"));

    let body = playground(&spawn_production_app().await).await;
    assert!(body.contains("<option value=\"POST /api/operator/launch\">"));
    assert!(body.contains("sends <code>GET</code> requests only, unless your operator"));
    assert!(body.contains("<code>PUT /api/operator/playground</code>"));
}
