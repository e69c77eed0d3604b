//! The live feed's own listener (`OPINION_LIVE_FEED_PORT`): a page there reads what a
//! page on the service's listener reads, a refused request gets the same problem, a head
//! that is not HTTP gets a bare status, and the pages end when the instance stops.

use std::time::Duration;

use opinion::config::Config;
use reqwest::Method;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::flight_feed::{Page, STAKE, assert_anonymous, assert_listed, player};
use crate::flight_support::{cashed_out_ticket, enable_flight, spawn_flight_app};
use crate::helpers::TestApp;
use crate::instance::Instance;

const LIVE_PATH: &str = "/api/player/flight/live";

/// A flight app and, over its database, an instance with the live feed on a listener of
/// its own.
struct Feed {
    app: TestApp,
    instance: Instance,
    /// The live feed's URL on its own listener.
    url: String,
}

impl Feed {
    /// Starts both, flight enabled for the app's first operator.
    async fn start() -> Self {
        let app = spawn_flight_app().await;
        let instance = Instance::start(&app.db, "live_feed", |config| Config {
            live_feed_port: Some(0),
            flight_driver: false,
            flight_tick_ms: 20,
            ..config
        })
        .await;
        let url = instance.live_feed.clone().expect("the live feed's URL");
        enable_flight(&app, &app.operator).await;
        Self { app, instance, url }
    }

    /// A player of the first operator with IDR to stake; its session.
    async fn player(&self, name: &str) -> String {
        player(&self.app, &self.app.operator, name).await
    }
}

/// The base URL of the listener serving `live_feed`.
fn base_of(live_feed: &str) -> &str {
    live_feed.strip_suffix(LIVE_PATH).expect("the live path")
}

/// `method path` on `base`, with `session` as the bearer token when given: the status,
/// the headers a client branches on and the problem body.
async fn refusal(app: &TestApp, base: &str, method: Method, path: &str, session: Option<&str>) -> (u16, Value) {
    let mut request = app.client.request(method, format!("{base}{path}"));
    if let Some(session) = session {
        request = request.bearer_auth(session);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|value| value.to_str().expect("text").to_owned())
    };
    let headers = serde_json::json!({
        "contentType": header("content-type"),
        "allow": header("allow"),
        "wwwAuthenticate": header("www-authenticate"),
        "requestIdSent": header("x-request-id").is_some(),
    });
    let mut body: Value = response.json().await.expect("problem");
    let request_id = body["requestId"].take();
    assert!(request_id.is_string(), "the problem names its request: {body}");
    (status, serde_json::json!({ "headers": headers, "body": body }))
}

/// Sends `bytes` on a new connection to the listener at `base`; everything it answers
/// before closing.
async fn raw_exchange(base: &str, bytes: &[u8]) -> String {
    let address = base.strip_prefix("http://").expect("http");
    let mut stream = TcpStream::connect(address).await.expect("connect");
    stream.write_all(bytes).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("the listener closes the connection")
        .expect("read");
    String::from_utf8(answer).expect("text")
}

#[tokio::test]
async fn a_page_on_the_feeds_own_listener_reads_other_players_cash_outs_anonymised() {
    let feed = Feed::start().await;
    let app = &feed.app;
    let buyer = feed.player("feed-buyer").await;
    let watcher = feed.player("feed-watcher").await;
    let mut watching = Page::open_url(app, &feed.url, &watcher).await;
    assert_eq!(watching.header("content-type"), Some("text/event-stream"));
    assert_eq!(watching.header("cache-control"), Some("no-store"));
    assert!(
        watching.header("x-request-id").is_some_and(|id| id.starts_with("req_")),
        "the stream's answer names its request"
    );

    let ticket = cashed_out_ticket(app, &buyer, STAKE).await;
    let seen = watching.cash_out_at("1.01", Duration::from_secs(10)).await;
    assert_listed(&seen);
    assert_anonymous(&watching.cash_outs, "feed-buyer", &app.operator, &ticket);
}

#[tokio::test]
async fn the_feeds_own_listener_refuses_as_the_service_does() {
    let feed = Feed::start().await;
    let app = &feed.app;
    let session = feed.player("feed-refused").await;
    let own = base_of(&feed.url);
    let cases: [(Method, &str, Option<&str>, u16, &str); 5] = [
        (Method::GET, LIVE_PATH, None, 401, "credential_missing"),
        (Method::GET, LIVE_PATH, Some("not-a-session"), 401, "session_invalid"),
        (Method::POST, LIVE_PATH, Some(&session), 405, "method_not_allowed"),
        (
            Method::GET,
            "/api/player/flight",
            Some(&session),
            404,
            "route_not_found",
        ),
        (
            Method::GET,
            "/api/player/flight/live/",
            Some(&session),
            404,
            "route_not_found",
        ),
    ];
    for (method, path, credential, status, code) in cases {
        let (on_feed, feed_answer) = refusal(app, own, method.clone(), path, credential).await;
        assert_eq!(
            (on_feed, feed_answer["body"]["code"].as_str()),
            (status, Some(code)),
            "{method} {path}: {feed_answer}"
        );
        if path == "/api/player/flight" {
            continue;
        }
        let (on_service, service_answer) = refusal(app, &app.address, method.clone(), path, credential).await;
        assert_eq!(
            (on_feed, &feed_answer),
            (on_service, &service_answer),
            "{method} {path} is refused alike on both listeners"
        );
    }
}

#[tokio::test]
async fn a_head_the_feeds_listener_cannot_read_is_answered_bare_and_the_connection_closed() {
    let feed = Feed::start().await;
    let base = base_of(&feed.url);

    let garbage = raw_exchange(base, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n").await;
    assert!(garbage.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{garbage}");

    let many: String = (0..40).map(|i| format!("X-Header-{i}: v\r\n")).collect();
    let crowded = raw_exchange(base, format!("GET {LIVE_PATH} HTTP/1.1\r\n{many}\r\n").as_bytes()).await;
    assert!(crowded.starts_with("HTTP/1.1 431 "), "{crowded}");

    let long = format!("GET {LIVE_PATH} HTTP/1.1\r\nCookie: {}\r\n\r\n", "c".repeat(9 * 1024));
    let oversized = raw_exchange(base, long.as_bytes()).await;
    assert!(oversized.starts_with("HTTP/1.1 431 "), "{oversized}");

    let late = raw_exchange(base, format!("GET {LIVE_PATH} HTTP/1.1\r\nHost: x\r\n").as_bytes()).await;
    assert!(late.starts_with("HTTP/1.1 408 "), "a head not finished in 5 s: {late}");

    let unauthenticated = raw_exchange(base, format!("GET {LIVE_PATH} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes()).await;
    assert!(
        unauthenticated.starts_with("HTTP/1.1 401 Unauthorized\r\n"),
        "{unauthenticated}"
    );
    assert!(
        unauthenticated.contains("\"code\":\"credential_missing\""),
        "{unauthenticated}"
    );
}

#[tokio::test]
async fn the_pages_on_the_feeds_own_listener_end_when_the_instance_stops() {
    let feed = Feed::start().await;
    let session = feed.player("feed-stopping").await;
    let mut page = Page::open_url(&feed.app, &feed.url, &session).await;

    feed.instance.shut_down().await.expect("a clean stop");
    assert!(
        page.ends_within(Duration::from_secs(10)).await,
        "the page's stream ended"
    );
    let refused = feed.app.client.get(&feed.url).bearer_auth(&session).send().await;
    assert!(refused.is_err(), "the listener is closed: {refused:?}");
}

#[tokio::test]
async fn a_page_whose_client_stops_sending_is_closed_by_the_listener() {
    let feed = Feed::start().await;
    let session = feed.player("feed-leaving").await;
    let address = base_of(&feed.url).strip_prefix("http://").expect("http");
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let head = format!("GET {LIVE_PATH} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {session}\r\n\r\n");
    stream.write_all(head.as_bytes()).await.expect("send");
    let mut read = Vec::new();
    let mut chunk = [0_u8; 4096];
    while !String::from_utf8_lossy(&read).contains("event: flight") {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .expect("the first event within 10 s")
            .expect("read");
        assert!(n > 0, "the stream ended early: {}", String::from_utf8_lossy(&read));
        read.extend_from_slice(&chunk[..n]);
    }
    assert!(String::from_utf8_lossy(&read).starts_with("HTTP/1.1 200 OK\r\n"));

    // The client is done sending: the listener ends the page rather than stream on.
    stream.shutdown().await.expect("half-close");
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
        .await
        .expect("the listener closed the page")
        .expect("read");
}
