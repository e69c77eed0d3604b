//! The two chromedriver extensions of WebDriver the kit needs and `fantoccini` does not
//! name: reading the browser's console log and calling the DevTools protocol (for a
//! screenshot of the whole page, not only the visible part).

use fantoccini::wd::WebDriverCompatibleCommand;
use http::Method;
use serde_json::{Value, json};
use url::{ParseError, Url};

/// `POST /session/{id}/se/log` for the `browser` log: the console entries since the last read.
#[derive(Debug)]
pub struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base_url: &Url, session_id: Option<&str>) -> Result<Url, ParseError> {
        base_url.join(&format!("session/{}/se/log", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _request_url: &Url) -> (Method, Option<String>) {
        (Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}

/// `POST /session/{id}/goog/cdp/execute`: one DevTools protocol command.
#[derive(Debug)]
pub struct DevTools {
    /// The command, e.g. `Page.captureScreenshot`.
    pub command: &'static str,
    /// Its parameters.
    pub params: Value,
}

impl WebDriverCompatibleCommand for DevTools {
    fn endpoint(&self, base_url: &Url, session_id: Option<&str>) -> Result<Url, ParseError> {
        base_url.join(&format!("session/{}/goog/cdp/execute", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _request_url: &Url) -> (Method, Option<String>) {
        let body = json!({ "cmd": self.command, "params": self.params });
        (Method::POST, Some(body.to_string()))
    }
}
