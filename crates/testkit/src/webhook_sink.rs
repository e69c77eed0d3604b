//! `WebhookSink`: a real HTTP receiver on a free local port standing in for an operator's
//! webhook endpoint. It records every request as it arrives (before any scripted delay,
//! so a request the sender gave up on is still seen) and answers from a script: a queue
//! of replies, then a default.

use std::collections::VecDeque;
use std::net::TcpListener;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::http::StatusCode;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use tokio::sync::watch;

/// One request as the sink received it.
#[derive(Debug, Clone)]
pub struct ReceivedRequest {
    /// The request path (with its query, if any).
    pub path: String,
    /// Every header, names in lower case, in arrival order.
    pub headers: Vec<(String, String)>,
    /// The exact body bytes.
    pub body: Vec<u8>,
}

impl ReceivedRequest {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// How the sink answers one request.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The status.
    pub status: u16,
    /// How long to wait before answering.
    pub delay: Duration,
    /// Extra headers (`Retry-After`, `Location`, …).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Reply {
    /// An immediate answer with `status` and a short body.
    pub fn status(status: u16) -> Self {
        Self {
            status,
            delay: Duration::ZERO,
            headers: Vec::new(),
            body: format!("sink answered {status}"),
        }
    }

    /// The same answer after `delay`.
    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// The same answer with a header.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The same answer with `body`.
    pub fn with_body(mut self, body: String) -> Self {
        self.body = body;
        self
    }
}

struct Script {
    queued: VecDeque<Reply>,
    default: Reply,
    received: Vec<ReceivedRequest>,
}

struct Shared {
    script: Mutex<Script>,
    count: watch::Sender<usize>,
}

impl Shared {
    fn script(&self) -> MutexGuard<'_, Script> {
        self.script.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A running receiver; stops when dropped.
pub struct WebhookSink {
    port: u16,
    shared: Arc<Shared>,
    handle: ServerHandle,
}

async fn receive(request: HttpRequest, body: web::Bytes, shared: web::Data<Arc<Shared>>) -> HttpResponse {
    let received = ReceivedRequest {
        path: request.uri().to_string(),
        headers: request
            .headers()
            .iter()
            .map(|(name, value)| (name.as_str().to_owned(), value.to_str().unwrap_or_default().to_owned()))
            .collect(),
        body: body.to_vec(),
    };
    let reply = {
        let mut script = shared.script();
        script.received.push(received);
        let count = script.received.len();
        shared.count.send_replace(count);
        script.queued.pop_front().unwrap_or_else(|| script.default.clone())
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = HttpResponse::build(StatusCode::from_u16(reply.status).unwrap_or(StatusCode::IM_A_TEAPOT));
    for (name, value) in &reply.headers {
        response.insert_header((name.as_str(), value.as_str()));
    }
    response.body(reply.body)
}

impl WebhookSink {
    /// Starts a sink on `127.0.0.1`, port 0, answering 204 until scripted otherwise.
    pub async fn start() -> WebhookSink {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap_or_else(|err| panic!("cannot bind the sink: {err}"));
        let port = listener
            .local_addr()
            .unwrap_or_else(|err| panic!("the sink has no address: {err}"))
            .port();
        let shared = Arc::new(Shared {
            script: Mutex::new(Script {
                queued: VecDeque::new(),
                default: Reply::status(204),
                received: Vec::new(),
            }),
            count: watch::channel(0).0,
        });
        let data = web::Data::new(shared.clone());
        let server = HttpServer::new(move || App::new().app_data(data.clone()).default_service(web::to(receive)))
            .workers(1)
            .disable_signals()
            .shutdown_timeout(0)
            .listen(listener)
            .unwrap_or_else(|err| panic!("the sink cannot listen: {err}"))
            .run();
        let handle = server.handle();
        tokio::spawn(server);
        WebhookSink { port, shared, handle }
    }

    /// The sink's URL, `http://127.0.0.1:<port>/hooks/<name>`.
    pub fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/hooks/{name}", self.port)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Answers the next requests with `replies`, in order, then with the default again.
    pub fn script(&self, replies: impl IntoIterator<Item = Reply>) {
        self.shared.script().queued.extend(replies);
    }

    /// Answers with `reply` whenever nothing is scripted.
    pub fn answer_by_default(&self, reply: Reply) {
        self.shared.script().default = reply;
    }

    /// Every request received so far.
    pub fn received(&self) -> Vec<ReceivedRequest> {
        self.shared.script().received.clone()
    }

    /// Waits until at least `count` requests have arrived, then returns them all; panics
    /// if they have not within `limit` (a bound on a test, not a timing assertion).
    pub async fn wait_for(&self, count: usize, limit: Duration) -> Vec<ReceivedRequest> {
        let mut arrivals = self.shared.count.subscribe();
        let arrived = tokio::time::timeout(limit, arrivals.wait_for(|n| *n >= count)).await;
        if !matches!(arrived, Ok(Ok(_))) {
            panic!(
                "the sink received {} requests, not {count}, within {limit:?}",
                self.received().len()
            );
        }
        self.received()
    }
}

impl Drop for WebhookSink {
    fn drop(&mut self) {
        drop(self.handle.stop(false));
    }
}
