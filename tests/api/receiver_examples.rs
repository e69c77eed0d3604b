//! The webhook receiver examples in examples/webhook-receivers/ run against real
//! deliveries: each one (Python, Node.js and Java as child processes, Rust in-process)
//! accepts the events the service delivers, and refuses a forged, a stale and a replayed
//! one as docs/webhooks.md says (401, 400, and 200 "already processed" without handling
//! it again).

use std::io::Write;
use std::net::TcpListener;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use opinion_example_receiver::Receiver;
use serde_json::{Value, json};
use standardwebhooks::Webhook;
use time::OffsetDateTime;

use crate::example_process::{ExampleProcess, Output, PATIENCE, examples};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_support::{open_market, order, placed, player, wallet};
use crate::webhooks_support::deliveries;

/// The events the trading path below produces, one each.
const TYPES: [&str; 3] = [
    "mini_app.login.succeeded",
    "mini_app.trade.submitted",
    "mini_app.trade.processed",
];

#[tokio::test]
async fn the_python_receiver_accepts_real_deliveries_and_refuses_forged_stale_and_replayed_ones() {
    let receiver = Running::script("python3", "python/receiver.py").await;
    check(receiver).await;
}

#[tokio::test]
async fn the_node_receiver_accepts_real_deliveries_and_refuses_forged_stale_and_replayed_ones() {
    let receiver = Running::script("node", "node/receiver.mjs").await;
    check(receiver).await;
}

#[tokio::test]
async fn the_java_receiver_accepts_real_deliveries_and_refuses_forged_stale_and_replayed_ones() {
    let receiver = Running::script("java", "java/Receiver.java").await;
    check(receiver).await;
}

#[tokio::test]
async fn the_rust_receiver_accepts_real_deliveries_and_refuses_forged_stale_and_replayed_ones() {
    check(Running::in_process()).await;
}

/// A running receiver example and everything it printed.
struct Running {
    secret: String,
    port: u16,
    process: ExampleProcess,
}

impl Running {
    /// Starts `examples/webhook-receivers/<script>` with `program`.
    async fn script(program: &str, script: &str) -> Self {
        let secret = new_secret();
        let path = examples("webhook-receivers").join(script);
        let process = ExampleProcess::start(program, &path, &[("WEBHOOK_SECRET", &secret), ("PORT", "0")]);
        let port = process.listening_port().await;
        Self { secret, port, process }
    }

    /// Runs the Rust example's `Receiver::serve` on a thread of this process.
    fn in_process() -> Self {
        let secret = new_secret();
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("address").port();
        let output = Output::default();
        let receiver = Receiver::new(&secret).expect("a whsec_ secret");
        let lines = Lines {
            pending: Vec::new(),
            output: output.clone(),
        };
        std::thread::spawn(move || receiver.serve(listener, lines));
        Self {
            secret,
            port,
            process: ExampleProcess::in_process(output),
        }
    }

    fn lines(&self) -> Vec<String> {
        self.process.lines()
    }

    async fn wait_for_line(&self, found: impl Fn(&str) -> bool) -> String {
        self.process.wait_for_line(found).await
    }

    fn accepted(&self) -> Vec<String> {
        self.lines()
            .into_iter()
            .filter(|line| line.starts_with("accepted "))
            .collect()
    }

    async fn wait_for_accepted(&self, count: usize) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        while self.accepted().len() < count {
            assert!(Instant::now() < deadline, "the receiver printed {:?}", self.lines());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.accepted()
    }

    /// Posts `body` straight to the receiver with these headers; returns the status.
    async fn post(&self, id: &str, timestamp: i64, signature: &str, body: &str) -> u16 {
        reqwest::Client::new()
            .post(format!("http://127.0.0.1:{}/webhooks", self.port))
            .header("content-type", "application/json")
            .header("webhook-id", id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body.to_owned())
            .send()
            .await
            .expect("the receiver answers")
            .status()
            .as_u16()
    }
}

/// A writer that hands the Rust receiver's lines to the test.
struct Lines {
    pending: Vec<u8>,
    output: Output,
}

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|byte| *byte == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line).trim_end().to_owned();
            self.output
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(line);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A Standard Webhooks secret of our own, so the receiver can start before the endpoint
/// is registered.
fn new_secret() -> String {
    format!("whsec_{}", STANDARD.encode(rand::random::<[u8; 32]>()))
}

fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> String {
    Webhook::new(secret)
        .expect("a whsec_ secret")
        .sign(id, timestamp, body.as_bytes())
        .expect("signable")
}

/// A well-formed envelope with a fresh id that the receiver has never seen.
fn envelope(app: &TestApp, id: &str) -> String {
    json!({
        "id": id,
        "type": "mini_app.market.resolved",
        "createdAt": "2026-11-22T10:15:00.123456Z",
        "operatorId": app.operator.id.to_string(),
        "data": {"marketId": "mkt_01jdz3qv6mz8x5c0a2t5d4e7fa", "winningOutcome": "yes", "resolvedAt": "2026-11-22T10:15:00.123456Z"},
    })
    .to_string()
}

/// The delivery log once the service has recorded every delivery's answer.
async fn all_delivered(app: &TestApp) -> Vec<Value> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let delivered = deliveries(app, "").await;
        if delivered.len() == TYPES.len() && delivered.iter().all(|delivery| delivery["status"] != "pending") {
            return delivered;
        }
        assert!(Instant::now() < deadline, "{delivered:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn check(receiver: Running) {
    let app = spawn_app().await;
    let url = format!("http://127.0.0.1:{}/webhooks", receiver.port);
    let body = json!({"url": url, "eventTypes": TYPES, "secret": receiver.secret});
    json_with_status(
        app.post("/api/operator/webhooks/endpoints", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    let market = open_market(&app).await;
    let wallet = wallet(&app).await;
    wallet.set_balance("p", 10_000);
    let session = player(&app, "p").await;
    placed(&app, &session, &order("b", market, "buy", "shares", 100)).await;
    app.instance_with_workers().await;

    let mut accepted = receiver.wait_for_accepted(TYPES.len()).await;
    let delivered = all_delivered(&app).await;
    let mut expected: Vec<String> = delivered
        .iter()
        .map(|delivery| {
            format!(
                "accepted {} {}",
                delivery["eventId"].as_str().expect("eventId"),
                delivery["eventType"].as_str().expect("eventType")
            )
        })
        .collect();
    accepted.sort();
    expected.sort();
    assert_eq!(accepted, expected, "every real delivery accepted once");
    let succeeded = |delivery: &Value| {
        delivery["status"] == "delivered"
            && delivery["attempts"][0]["statusCode"]
                .as_u64()
                .is_some_and(|status| (200..300).contains(&status))
    };
    assert!(delivered.iter().all(succeeded), "{delivered:?}");

    let now = OffsetDateTime::now_utc().unix_timestamp();
    let forged_id = "evt_01jdz3qv6mz8x5c0a2t5d4e7z1";
    let forged = envelope(&app, forged_id);
    let wrong_secret = new_secret();
    let forged_signature = sign(&wrong_secret, forged_id, now, &forged);
    assert_eq!(
        receiver.post(forged_id, now, &forged_signature, &forged).await,
        401,
        "forged"
    );
    let stale_id = "evt_01jdz3qv6mz8x5c0a2t5d4e7z2";
    let stale = envelope(&app, stale_id);
    let ten_minutes_ago = now - 600;
    let stale_signature = sign(&receiver.secret, stale_id, ten_minutes_ago, &stale);
    assert_eq!(
        receiver.post(stale_id, ten_minutes_ago, &stale_signature, &stale).await,
        400,
        "stale"
    );

    let replayed = &delivered[0];
    let path = format!(
        "/api/operator/webhooks/deliveries/{}/replay",
        replayed["id"].as_str().expect("id")
    );
    let answer = json_with_status(app.post_empty(&path, &app.operator.key).await, 200).await;
    assert_eq!(
        answer["attempts"][1]["statusCode"], 200,
        "a replay is answered already processed: {answer}"
    );
    let event_id = replayed["eventId"].as_str().expect("eventId");
    receiver
        .wait_for_line(|line| line == format!("duplicate {event_id}"))
        .await;
    assert_eq!(
        receiver.accepted().len(),
        TYPES.len(),
        "the replay was not handled again"
    );

    // Neither refusal claimed its id: correctly signed and fresh, each is accepted now.
    for (id, body) in [(forged_id, &forged), (stale_id, &stale)] {
        let signature = sign(&receiver.secret, id, now, body);
        assert_eq!(receiver.post(id, now, &signature, body).await, 204, "{id}");
    }
    let accepted = receiver.wait_for_accepted(TYPES.len() + 2).await;
    assert_eq!(accepted.len(), TYPES.len() + 2, "{:?}", receiver.lines());
}
