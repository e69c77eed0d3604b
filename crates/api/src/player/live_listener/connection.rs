//! One live-feed connection: its head read within a deadline, the page's player
//! authenticated as on the service's own listener, then the page's events written
//! straight to the socket until the feed ends, the client leaves or stops reading.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use futures_util::StreamExt;
use opinion_app::players::PlayerPrincipal;
use opinion_metrics::Listener;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tracing::Instrument;

use crate::http::error::ApiError;
use crate::http::player_auth::flight_player;
use crate::http::request_id::{log_outcome, request_id, request_span, scoped};
use crate::player::flight_feed::{LIVE_PATH, Viewer};
use crate::player::live_listener::head::{HeadError, RequestHead, read_head};
use crate::player::live_listener::reply;
use crate::state::ApiState;

/// How long a client has to send its whole head.
const HEAD_DEADLINE: Duration = Duration::from_secs(5);

/// How long one write may wait for a client that does not read.
const WRITE_DEADLINE: Duration = Duration::from_secs(30);

/// How long, and for how many bytes, a refused client's input is read and dropped after
/// its answer, before the connection closes.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 64 * 1024;

/// Serves `stream` to its end.
pub async fn serve(mut stream: TcpStream, state: Arc<ApiState>) {
    let _open = state.metrics.connection_opened(Listener::LiveFeed);
    let head = match tokio::time::timeout(HEAD_DEADLINE, read_head(&mut stream)).await {
        Ok(Ok(head)) => head,
        Ok(Err(HeadError::Gone)) => return,
        Ok(Err(HeadError::Malformed)) => return refuse(stream, StatusCode::BAD_REQUEST).await,
        Ok(Err(HeadError::TooLarge)) => return refuse(stream, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE).await,
        Err(_late) => return refuse(stream, StatusCode::REQUEST_TIMEOUT).await,
    };
    let id = request_id(head.request_id.as_ref());
    let span = request_span(&id, &head.method, &head.path);
    // Boxed: authenticating takes far more room than streaming, and a page streams for
    // as long as it is open.
    let answering = Box::pin(answer(&mut stream, head, &state, id.clone()));
    match scoped(id, answering.instrument(span)).await {
        Answer::Stream(viewer) => pump(stream, &state, viewer).await,
        Answer::Refused => linger(stream).await,
        Answer::Gone => {}
    }
}

/// What answering a head came to.
enum Answer {
    /// The stream's head is written: the page's events follow.
    Stream(Viewer),
    /// A problem is written: the connection closes.
    Refused,
    /// The client went before the answer was written.
    Gone,
}

/// Answers a head that could not be read, and closes.
async fn refuse(mut stream: TcpStream, status: StatusCode) {
    if write(&mut stream, &reply::bare(status)).await.is_ok() {
        linger(stream).await;
    }
}

/// Closes after an answer: the client reads the answer before the connection goes,
/// though it may still be sending (a long head, a body). Closing a socket with unread
/// bytes resets it, and a reset can destroy the answer on its way.
async fn linger(mut stream: TcpStream) {
    if stream.shutdown().await.is_err() {
        return;
    }
    let mut sink = vec![0_u8; 512];
    let mut left = LINGER_BYTES;
    let drained = async {
        while let Ok(read @ 1..) = stream.read(&mut sink).await {
            left = left.saturating_sub(read);
            if left == 0 {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(LINGER, drained).await;
}

/// Answers `head` with the stream's head or the problem that refuses it.
async fn answer(stream: &mut TcpStream, head: RequestHead, state: &ApiState, id: String) -> Answer {
    let started = Instant::now();
    let span = tracing::Span::current();
    let route = (head.path == LIVE_PATH).then_some(LIVE_PATH);
    let (status, bytes, answer) = match admit(&head, state).await {
        Ok(player) => (
            StatusCode::OK,
            reply::stream_head(&id),
            Answer::Stream((player.operator_id, player.user.id)),
        ),
        Err(error) => {
            let (status, bytes) = reply::problem(&error, &id);
            (status, bytes, Answer::Refused)
        }
    };
    state
        .metrics
        .http_request(route, &head.method, status.as_u16(), started.elapsed());
    log_outcome(&span, status.as_u16(), started);
    match write(stream, &bytes).await {
        Ok(()) => answer,
        Err(_) => Answer::Gone,
    }
}

/// The page's player, if the head asks for the live feed with a flight session.
async fn admit(head: &RequestHead, state: &ApiState) -> Result<PlayerPrincipal, ApiError> {
    if head.path != LIVE_PATH {
        return Err(ApiError::RouteNotFound);
    }
    if head.method != "GET" {
        return Err(ApiError::MethodNotAllowed("GET".into()));
    }
    flight_player(state, head.authorization.as_ref(), head.host.as_deref()).await
}

/// Writes the page's events until the feed ends, the client closes (or sends anything:
/// nothing may follow a request whose answer never ends) or a write stalls.
async fn pump(mut stream: TcpStream, state: &ApiState, viewer: Viewer) {
    let events = state.flight_feed.events(viewer);
    let mut events = std::pin::pin!(events);
    let (mut reader, mut writer) = stream.split();
    let mut probe = [0_u8; 1];
    loop {
        tokio::select! {
            event = events.next() => {
                let Some(bytes) = event else { return };
                if write(&mut writer, &bytes).await.is_err() {
                    return;
                }
            }
            _ = reader.read(&mut probe) => return,
        }
    }
}

/// Writes all of `bytes`, failing when the client takes longer than `WRITE_DEADLINE`.
async fn write(writer: &mut (impl AsyncWriteExt + Unpin), bytes: &[u8]) -> std::io::Result<()> {
    match tokio::time::timeout(WRITE_DEADLINE, writer.write_all(bytes)).await {
        Ok(written) => written,
        Err(_stalled) => Err(std::io::ErrorKind::TimedOut.into()),
    }
}
