//! Just enough HTTP/1.1 for the test servers: read one request from a connection, write
//! one answer and close. Written on raw sockets on purpose: the servers must be able to
//! misbehave in ways a real HTTP framework will not (close after reading, hold the
//! connection, cut an answer short).

use std::future::Future;
use std::io;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// Largest request head read.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Largest request body read.
const MAX_BODY_BYTES: usize = 1024 * 1024;
/// Most header lines in a request.
const MAX_HEADERS: usize = 64;

/// One request as a test server received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireRequest {
    /// `POST`, `GET`, …
    pub method: String,
    /// The request target, e.g. `/v1/mutations`.
    pub path: String,
    /// Header names (lower case) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body, exactly as received.
    pub body: Vec<u8>,
}

impl WireRequest {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Accepts connections and handles each on its own task, until the calling task is
/// aborted; the open connections' tasks are then dropped with it.
pub(crate) async fn accept_each<F, Fut>(listener: TcpListener, handle: F)
where
    F: Fn(TcpStream) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut open = JoinSet::new();
    while let Ok((stream, _)) = listener.accept().await {
        open.spawn(handle(stream));
        while open.try_join_next().is_some() {}
    }
}

/// Binds `127.0.0.1:0`; panics with the reason if it cannot (a test harness cannot go on).
pub(crate) async fn bind_local() -> TcpListener {
    TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|error| panic!("cannot bind a test server: {error}"))
}

/// Reads one whole request (head and `Content-Length` body). `Ok(None)` when the peer
/// closed first or sent something that is not an HTTP/1.1 request (e.g. a TLS handshake).
pub(crate) async fn read_request(stream: &mut TcpStream) -> io::Result<Option<WireRequest>> {
    let mut buffer = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut headers);
        match parsed.parse(&buffer) {
            Ok(httparse::Status::Complete(head_len)) => {
                let request = head_of(&parsed);
                return read_body(stream, request, buffer.split_off(head_len)).await;
            }
            Ok(httparse::Status::Partial) if buffer.len() < MAX_HEAD_BYTES => {}
            _ => return Ok(None),
        }
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            return Ok(None);
        }
        buffer.extend_from_slice(&chunk[..read]);
    }
}

fn head_of(parsed: &httparse::Request<'_, '_>) -> WireRequest {
    WireRequest {
        method: parsed.method.unwrap_or_default().to_owned(),
        path: parsed.path.unwrap_or_default().to_owned(),
        headers: parsed
            .headers
            .iter()
            .map(|header| {
                (
                    header.name.to_ascii_lowercase(),
                    String::from_utf8_lossy(header.value).into_owned(),
                )
            })
            .collect(),
        body: Vec::new(),
    }
}

async fn read_body(
    stream: &mut TcpStream,
    mut request: WireRequest,
    mut body: Vec<u8>,
) -> io::Result<Option<WireRequest>> {
    let length = match request.header("content-length") {
        None => 0,
        Some(text) => match text.trim().parse::<usize>() {
            Ok(length) if length <= MAX_BODY_BYTES => length,
            _ => return Ok(None),
        },
    };
    let mut chunk = [0u8; 4096];
    while body.len() < length {
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            return Ok(None);
        }
        body.extend_from_slice(&chunk[..read]);
    }
    body.truncate(length);
    request.body = body;
    Ok(Some(request))
}

/// The bytes of a whole answer that closes the connection after it.
pub(crate) fn answer_bytes(status: u16, headers: &[(String, String)], body: &[u8]) -> Vec<u8> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason_phrase(status));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("content-length: {}\r\nconnection: close\r\n\r\n", body.len()));
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Writes `bytes` and closes the connection.
pub(crate) async fn write_and_close(stream: &mut TcpStream, bytes: &[u8]) -> io::Result<()> {
    stream.write_all(bytes).await?;
    stream.shutdown().await
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        302 => "Found",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}
