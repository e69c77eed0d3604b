//! The operator's webhook receivers: each a local HTTP server that alternates a healthy
//! phase (verifies the signature, records the event id, answers 200) and a failing one
//! (answers 500, one time in four only after the endpoint's timeout), so deliveries fail, are
//! retried and recover. An event counts as received only when a receiver accepted it;
//! a second acceptance of the same event is a duplicate (at-least-once allows them).

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use opinion_webhook::{DEFAULT_TOLERANCE_SECS, SigningSecret, verify};
use time::OffsetDateTime;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The endpoint's `timeoutSeconds`; a slow failing answer comes a second after it.
pub const ENDPOINT_TIMEOUT_SECONDS: u64 = 2;

/// When a receiver fails: `failing` out of every `period`, starting `offset` into it.
#[derive(Debug, Clone, Copy)]
pub struct Phases {
    /// One cycle.
    pub period: Duration,
    /// The failing part of it.
    pub failing: Duration,
    /// Where this receiver's cycle starts, so receivers fail at different times.
    pub offset: Duration,
}

impl Phases {
    /// Whether the receiver fails `elapsed` after the start.
    fn failing_at(&self, elapsed: Duration) -> bool {
        let into = (elapsed + self.offset).as_millis() % self.period.as_millis().max(1);
        into < self.failing.as_millis()
    }
}

/// What one receiver saw.
#[derive(Debug, Default, Clone)]
pub struct Received {
    /// Accepted deliveries per event id.
    pub accepted: HashMap<String, u32>,
    /// Deliveries refused on purpose (500 or too late).
    pub refused: u64,
    /// Deliveries whose signature did not verify (must stay zero).
    pub bad_signatures: u64,
}

struct Shared {
    phases: Phases,
    started: Instant,
    secret: Mutex<Option<SigningSecret>>,
    received: Mutex<Received>,
    calls: AtomicU64,
    healthy_only: AtomicBool,
}

/// One running receiver; stops when dropped.
pub struct Receiver {
    address: SocketAddr,
    shared: Arc<Shared>,
    acceptor: JoinHandle<()>,
}

impl Receiver {
    /// Binds a free loopback port and serves there.
    pub async fn start(phases: Phases) -> anyhow::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let address = listener.local_addr()?;
        let shared = Arc::new(Shared {
            phases,
            started: Instant::now(),
            secret: Mutex::new(None),
            received: Mutex::new(Received::default()),
            calls: AtomicU64::new(0),
            healthy_only: AtomicBool::new(false),
        });
        let serving = shared.clone();
        let acceptor = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let shared = serving.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |request| answer(shared.clone(), request));
                    // A delivery the service gave up on is not the receiver's concern.
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Ok(Self {
            address,
            shared,
            acceptor,
        })
    }

    /// `http://127.0.0.1:<port>/hook`.
    pub fn url(&self) -> String {
        format!("http://{}/hook", self.address)
    }

    /// Verifies every delivery with `secret` (`whsec_…`) from now on.
    pub fn set_secret(&self, secret: &str) -> anyhow::Result<()> {
        let secret: SigningSecret = secret.parse().map_err(|e| anyhow::anyhow!("endpoint secret: {e}"))?;
        *self.shared.secret.lock().unwrap_or_else(PoisonError::into_inner) = Some(secret);
        Ok(())
    }

    /// Stops failing: the receivers recover for the drain.
    pub fn recover(&self) {
        self.shared.healthy_only.store(true, Ordering::Relaxed);
    }

    /// What arrived so far.
    pub fn received(&self) -> Received {
        self.shared
            .received
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.acceptor.abort();
    }
}

/// One delivery.
async fn answer(shared: Arc<Shared>, request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let (id, timestamp, signature) = (
        header("webhook-id"),
        header("webhook-timestamp"),
        header("webhook-signature"),
    );
    let body = match request.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let failing = !shared.healthy_only.load(Ordering::Relaxed) && shared.phases.failing_at(shared.started.elapsed());
    if failing {
        shared.received.lock().unwrap_or_else(PoisonError::into_inner).refused += 1;
        if shared.calls.fetch_add(1, Ordering::Relaxed).is_multiple_of(4) {
            tokio::time::sleep(Duration::from_secs(ENDPOINT_TIMEOUT_SECONDS + 1)).await;
        }
        return Ok(reply(StatusCode::INTERNAL_SERVER_ERROR));
    }
    let verified = {
        let secret = shared.secret.lock().unwrap_or_else(PoisonError::into_inner);
        secret.as_ref().is_some_and(|secret| {
            verify(
                secret,
                &id,
                &timestamp,
                &signature,
                &body,
                OffsetDateTime::now_utc().unix_timestamp(),
                DEFAULT_TOLERANCE_SECS,
            )
            .is_ok()
        })
    };
    let mut received = shared.received.lock().unwrap_or_else(PoisonError::into_inner);
    if !verified {
        received.bad_signatures += 1;
        return Ok(reply(StatusCode::UNAUTHORIZED));
    }
    *received.accepted.entry(id).or_default() += 1;
    Ok(reply(StatusCode::OK))
}

fn reply(status: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(b"{}")));
    *response.status_mut() = status;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receiver_fails_at_the_start_of_each_cycle_shifted_by_its_offset() {
        let phases = Phases {
            period: Duration::from_secs(60),
            failing: Duration::from_secs(15),
            offset: Duration::from_secs(20),
        };
        assert!(!phases.failing_at(Duration::from_secs(0)));
        assert!(phases.failing_at(Duration::from_secs(40)));
        assert!(phases.failing_at(Duration::from_secs(54)));
        assert!(!phases.failing_at(Duration::from_secs(55)));
        assert!(phases.failing_at(Duration::from_secs(100)));
    }
}
