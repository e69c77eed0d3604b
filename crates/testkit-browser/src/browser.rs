//! Headless Chromium in a fresh profile, and what a page test asks of it.

use std::path::PathBuf;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Map, Value, json};
use tempfile::TempDir;

use crate::artefacts::artefact_dir;
use crate::commands::{BrowserLog, DevTools};
use crate::driver::Driver;
use crate::install::{CHROMIUM, ensure_installed};
use crate::window::WindowSize;

/// The flags Chromium needs on a build machine: no sandbox (containers run as root), no
/// GPU, and no traffic of its own (updates, sync, QUIC probes) that a test of a page's
/// requests would otherwise see or wait for.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
];

/// Every URL the page loaded or fetched since it was opened: the document itself, then
/// each resource (styles, scripts, images, `fetch` calls) in the order they started.
const REQUESTS_SCRIPT: &str = "return performance.getEntriesByType('navigation')\
    .concat(performance.getEntriesByType('resource')).map(function (e) { return e.name; });";

/// One line of the browser's console.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsoleEntry {
    /// `SEVERE` (errors, refused loads, policy violations), `WARNING`, `INFO`, ...
    pub level: String,
    /// The line as the browser wrote it.
    pub message: String,
}

/// A headless Chromium session; the browser and its driver end when it is dropped.
pub struct Browser {
    client: Client,
    suite: String,
    _profile: TempDir,
    _driver: Driver,
}

impl Browser {
    /// Starts chromedriver and a browser at laptop size; screenshots go to
    /// `target/test-artefacts/<suite>/`.
    ///
    /// # Panics
    ///
    /// When Chromium is missing and cannot be installed, or does not start.
    pub async fn start(suite: &str) -> Browser {
        ensure_installed();
        let driver = Driver::start().await;
        let profile = tempfile::tempdir().expect("a temporary browser profile");
        let mut args: Vec<String> = FLAGS.iter().map(|flag| (*flag).to_owned()).collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        let size = WindowSize::LAPTOP;
        args.push(format!("--window-size={},{}", size.width, size.height));
        let mut capabilities = Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert("goog:chromeOptions".into(), json!({ "binary": CHROMIUM, "args": args }));
        capabilities.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&driver.url())
            .await
            .unwrap_or_else(|error| panic!("headless Chromium does not start: {error}"));
        Browser {
            client,
            suite: suite.to_owned(),
            _profile: profile,
            _driver: driver,
        }
    }

    /// The WebDriver client, for what the helpers do not cover (finding and clicking
    /// elements, typing).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Opens `url` and waits for it to load.
    pub async fn open(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|error| panic!("cannot open {url}: {error}"));
    }

    /// Sizes the window.
    pub async fn resize(&self, size: WindowSize) {
        self.client
            .set_window_size(size.width, size.height)
            .await
            .unwrap_or_else(|error| panic!("cannot size the window to {}: {error}", size.name));
    }

    /// Runs `script` (a function body; `return` gives its answer) in the page.
    pub async fn run(&self, script: &str) -> Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|error| panic!("the script failed: {error}"))
    }

    /// The console lines written since the last call (reading empties the log).
    pub async fn console(&self) -> Vec<ConsoleEntry> {
        let answer = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .unwrap_or_else(|error| panic!("cannot read the console log: {error}"));
        answer
            .as_array()
            .into_iter()
            .flatten()
            .map(|entry| ConsoleEntry {
                level: entry["level"].as_str().unwrap_or_default().to_owned(),
                message: entry["message"].as_str().unwrap_or_default().to_owned(),
            })
            .collect()
    }

    /// Fails when the console has an error since the last read; `context` names the page.
    pub async fn assert_no_console_errors(&self, context: &str) {
        let errors: Vec<String> = self
            .console()
            .await
            .into_iter()
            .filter(|entry| entry.level == "SEVERE")
            .map(|entry| entry.message)
            .collect();
        assert!(errors.is_empty(), "{context}: console errors: {errors:#?}");
    }

    /// Every URL the current page requested, itself first.
    pub async fn requests(&self) -> Vec<String> {
        self.run(REQUESTS_SCRIPT)
            .await
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|url| url.as_str().map(str::to_owned))
            .collect()
    }

    /// Fails when the current page requested anything outside `origin`
    /// (`http://127.0.0.1:8080`); `context` names the page.
    pub async fn assert_requests_stay_on(&self, origin: &str, context: &str) {
        let prefix = format!("{}/", origin.trim_end_matches('/'));
        let outside: Vec<String> = self
            .requests()
            .await
            .into_iter()
            .filter(|url| !url.starts_with(&prefix))
            .collect();
        assert!(outside.is_empty(), "{context}: requests left {origin}: {outside:#?}");
    }

    /// A screenshot of the whole page, not only the window, kept as
    /// `target/test-artefacts/<suite>/<name>.png`; returns its path.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let metrics = self.dev_tools("Page.getLayoutMetrics", json!({})).await;
        let content = &metrics["cssContentSize"];
        let clip = json!({
            "x": 0, "y": 0, "scale": 1,
            "width": content["width"].as_f64().unwrap_or(1366.0),
            "height": content["height"].as_f64().unwrap_or(768.0),
        });
        let shot = self
            .dev_tools(
                "Page.captureScreenshot",
                json!({ "format": "png", "captureBeyondViewport": true, "clip": clip }),
            )
            .await;
        let png = STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .expect("the screenshot is base64");
        let path = artefact_dir(&self.suite).join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
        path
    }

    /// Ends the session cleanly (the driver is shut down when the browser is dropped).
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }

    async fn dev_tools(&self, command: &'static str, params: Value) -> Value {
        self.client
            .issue_cmd(DevTools { command, params })
            .await
            .unwrap_or_else(|error| panic!("DevTools {command} failed: {error}"))
    }
}
