//! The live feed's own listener: `GET /api/player/flight/live` and nothing else, on a
//! port of its own that a load balancer routes that path to. The service's listener
//! serves the same stream, but actix-web keeps an 8 KiB read and an 8 KiB write buffer
//! per connection for its whole life, which is most of what thousands of open pages
//! cost. Here a connection holds its head only while it is read, and writes the feed's
//! shared bytes straight to the socket: a page costs its task and its place in the feed.
//!
//! The answers are the service's: the same authentication, problem bodies, request ids,
//! log lines and request metrics. A head that is not HTTP/1.x, too large or too slow gets
//! a bare 400, 431 or 408, as on the service's listener. Every answer closes the
//! connection after it.

mod connection;
mod head;
mod reply;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::state::ApiState;

/// How long accepting waits after the system refused a connection (out of descriptors).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// A bound listener, not yet serving.
pub struct LiveFeedListener {
    listener: std::net::TcpListener,
}

impl LiveFeedListener {
    /// Binds `address` (port 0 picks a free port), with a deep accept queue: pages open in
    /// bursts when a flight's players arrive.
    pub fn bind(address: (&str, u16)) -> io::Result<Self> {
        let listener = crate::http::listen::bind_listener(address)?;
        listener.set_nonblocking(true)?;
        Ok(Self { listener })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The accepting loop, to spawn on the runtime that serves: each connection in a task
    /// of its own, until `stopped` changes. Pages already open end with the feed.
    pub fn serve(
        self,
        state: ApiState,
        mut stopped: watch::Receiver<bool>,
    ) -> io::Result<impl Future<Output = ()> + Send + 'static> {
        let listener = tokio::net::TcpListener::from_std(self.listener)?;
        let state = Arc::new(state);
        Ok(async move {
            loop {
                tokio::select! {
                    accepted = listener.accept() => match accepted {
                        Ok((stream, _peer)) => {
                            let _ = stream.set_nodelay(true);
                            tokio::spawn(connection::serve(stream, state.clone()));
                        }
                        Err(error) => {
                            tracing::warn!(%error, "the live feed's listener could not accept a connection");
                            tokio::time::sleep(ACCEPT_BACKOFF).await;
                        }
                    },
                    _ = stopped.changed() => break,
                }
            }
        })
    }
}
