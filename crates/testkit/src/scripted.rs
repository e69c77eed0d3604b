//! `ScriptedServer`: a real HTTP server on `127.0.0.1:0` that answers each request it
//! reads with the next reply of a script, including the ways a server can fail after
//! reading a request. For testing HTTP clients against every kind of answer.
//!
//! ```no_run
//! # async fn demo() {
//! use opinion_testkit::{ScriptedReply, ScriptedServer};
//! let server = ScriptedServer::start(vec![ScriptedReply::json(503, "{}"), ScriptedReply::Close]).await;
//! // call server.url() twice: the first call gets a 503, the second a closed connection
//! assert_eq!(server.requests().len(), 0);
//! # }
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::net::TcpStream;
use tokio::task::JoinHandle;

use crate::http_wire::{WireRequest, accept_each, answer_bytes, bind_local, read_request, write_and_close};

/// What the server does with one request, once it has read it whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptedReply {
    /// Answers with a status, headers and a body, then closes.
    Answer {
        /// The status.
        status: u16,
        /// Extra headers (`content-length` and `connection: close` are always added).
        headers: Vec<(String, String)>,
        /// The body.
        body: Vec<u8>,
    },
    /// Writes these bytes verbatim (e.g. a head promising more body than follows), then closes.
    Raw(Vec<u8>),
    /// Closes the connection without answering.
    Close,
    /// Never answers; keeps the connection open until the server is dropped.
    Hold,
}

impl ScriptedReply {
    /// A JSON answer.
    pub fn json(status: u16, body: &str) -> Self {
        Self::Answer {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.as_bytes().to_vec(),
        }
    }
}

#[derive(Default)]
struct Script {
    replies: Vec<ScriptedReply>,
    requests: Vec<WireRequest>,
}

impl Script {
    /// The reply to the next request: the script in order, then its last reply again.
    fn next_reply(&mut self, request: WireRequest) -> ScriptedReply {
        let index = self.requests.len().min(self.replies.len().saturating_sub(1));
        self.requests.push(request);
        self.replies.get(index).cloned().unwrap_or(ScriptedReply::Close)
    }
}

/// A scripted HTTP server; stops (and drops every open connection) when dropped.
pub struct ScriptedServer {
    address: SocketAddr,
    script: Arc<Mutex<Script>>,
    connections: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl ScriptedServer {
    /// Starts a server that answers the n-th request with `replies[n]` (the last reply
    /// repeats; an empty script closes every connection).
    pub async fn start(replies: Vec<ScriptedReply>) -> Self {
        let listener = bind_local().await;
        let address = listener
            .local_addr()
            .unwrap_or_else(|error| panic!("test server has no address: {error}"));
        let script = Arc::new(Mutex::new(Script {
            replies,
            requests: Vec::new(),
        }));
        let connections = Arc::new(AtomicUsize::new(0));
        let (served, counted) = (script.clone(), connections.clone());
        let task = tokio::spawn(accept_each(listener, move |stream| {
            counted.fetch_add(1, Ordering::SeqCst);
            answer(stream, served.clone())
        }));
        Self {
            address,
            script,
            connections,
            task,
        }
    }

    /// `http://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The address listened on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Every whole request read so far, in order.
    pub fn requests(&self) -> Vec<WireRequest> {
        self.script
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .requests
            .clone()
    }

    /// How many connections were accepted, whether or not a request came on them.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn answer(mut stream: TcpStream, script: Arc<Mutex<Script>>) {
    let Ok(Some(request)) = read_request(&mut stream).await else {
        return;
    };
    let reply = script
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .next_reply(request);
    let written = match reply {
        ScriptedReply::Answer { status, headers, body } => {
            write_and_close(&mut stream, &answer_bytes(status, &headers, &body)).await
        }
        ScriptedReply::Raw(bytes) => write_and_close(&mut stream, &bytes).await,
        ScriptedReply::Close => Ok(()),
        ScriptedReply::Hold => std::future::pending().await,
    };
    if let Err(error) = written {
        eprintln!("scripted server: writing the reply failed: {error}");
    }
}
