//! A tiny HTTP/1.1 server on `127.0.0.1:0` for the stand-ins the service calls (the
//! wallet adapter, the webhook receivers): each answers every request at once, or after
//! the delay it asks for (a slow receiver).

use std::convert::Infallible;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// What a stand-in does with one request: it gets the path and body, and says the
/// status and JSON body of its answer.
pub trait Responder: Send + Sync + 'static {
    /// Answers one request.
    fn respond(&self, path: &str, body: &[u8]) -> (StatusCode, Vec<u8>);

    /// How long to wait before answering: none unless the stand-in is slow on purpose.
    fn delay(&self) -> Duration {
        Duration::ZERO
    }
}

/// A shared stand-in answers as the stand-in does, so its owner can still read it.
impl<R: Responder> Responder for Arc<R> {
    fn respond(&self, path: &str, body: &[u8]) -> (StatusCode, Vec<u8>) {
        R::respond(self, path, body)
    }

    fn delay(&self) -> Duration {
        R::delay(self)
    }
}

/// A running stand-in; stops accepting when dropped.
pub struct LocalServer {
    address: SocketAddr,
    acceptor: JoinHandle<()>,
}

impl LocalServer {
    /// Binds a free loopback port and serves `responder` there.
    pub async fn start(responder: impl Responder) -> anyhow::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let address = listener.local_addr()?;
        let responder = Arc::new(responder);
        let acceptor = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let responder = responder.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |request| answer(responder.clone(), request));
                    // A connection the service closes mid-request is not the stand-in's concern.
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Ok(Self { address, acceptor })
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.acceptor.abort();
    }
}

/// Reads the whole body and asks the responder.
async fn answer<R: Responder>(
    responder: Arc<R>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = request.uri().path().to_owned();
    let body = match request.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let delay = responder.delay();
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let (status, answer) = responder.respond(&path, &body);
    let mut response = Response::new(Full::new(Bytes::from(answer)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    Ok(response)
}
