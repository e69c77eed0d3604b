//! The live flight fan-out: one task per instance reads the flight being played every
//! tick and publishes its public snapshot on a watch channel only when it changes
//! (phase, crash, seed); every connected page's event stream reads the channel. A
//! thousand pages cost what one costs in database reads; pages compute the climbing
//! multiplier themselves from the take-off instant and the server's time.
//!
//! Other players' cash-outs ride the same channel: once per `BATCH` the task reads the
//! flight's counts and new cash-outs (one read per instance, over every operator, so a
//! cash-out stored by any instance reaches every instance's pages), renders the update
//! once, and every page writes those bytes as they are. Only a page whose own player is
//! among the cash-outs (its own marked `mine`), or that missed an update, renders its own.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web::{Bytes, BytesMut};
use futures_util::stream::{self, Stream};
use opinion_app::flight::{BoardKeeper, CashOutBoard, FeedCashOut, FlightGame, LiveFlight};
use opinion_core::{OperatorId, UserId};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::player::flight_dto::{CashOutsBody, LiveFlightBody};

/// The live feed's path, on the service's listener and on the feed's own.
pub const LIVE_PATH: &str = "/api/player/flight/live";

/// The headers of the event stream's answer, wherever it is served.
pub const STREAM_HEADERS: [(&str, &str); 3] = [
    ("Content-Type", "text/event-stream"),
    ("Cache-Control", "no-store"),
    ("X-Accel-Buffering", "no"),
];

/// How often a page with nothing new hears a comment, so proxies keep the stream open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How often the flight's counts and cash-outs are read and sent, at most.
pub const BATCH: Duration = Duration::from_millis(250);

/// The player a page belongs to (its own cash-outs are marked `mine`).
pub type Viewer = (OperatorId, UserId);

/// What the feed task publishes.
#[derive(Clone, Default)]
struct FeedState {
    flight: Option<LiveFlight>,
    /// Bumped at each change of `flight`.
    flight_version: u64,
    board: Option<Arc<RenderedBoard>>,
}

/// A board update with the `cashouts` events every page without cash-outs of its own
/// writes as they are.
struct RenderedBoard {
    board: CashOutBoard,
    /// The whole board (`reset`), for a page that has none of this flight yet.
    whole: Bytes,
    /// The update's cash-outs, for a page that has every earlier one.
    latest: Bytes,
}

impl RenderedBoard {
    fn of(board: CashOutBoard) -> Self {
        let whole = cash_outs_event(&board, &board.recent, true, None);
        let latest = cash_outs_event(&board, board.after(board.previous_seq), false, None);
        Self { board, whole, latest }
    }
}

/// What one page has been sent.
struct PageState {
    live: watch::Receiver<FeedState>,
    viewer: Viewer,
    flight_version: Option<u64>,
    board: Option<Arc<RenderedBoard>>,
}

/// The receiving end of the live flight; cheap to clone into every handler.
#[derive(Clone)]
pub struct FlightFeed {
    live: watch::Receiver<FeedState>,
}

/// The task publishing the feed; `stop` ends it, and dropping it aborts it.
pub struct FlightFeedTask {
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl FlightFeed {
    /// Starts reading the flight every `tick` (its cash-outs every `BATCH`, or every
    /// tick when that is longer) on the current runtime.
    pub fn start(game: FlightGame, tick: Duration) -> (Self, FlightFeedTask) {
        let (publish, live) = watch::channel(FeedState::default());
        let (stop, mut stopped) = watch::channel(false);
        let task = tokio::spawn(async move {
            let mut keeper = BoardKeeper::default();
            let mut board_read: Option<Instant> = None;
            loop {
                match game.live_flight().await {
                    Ok(snapshot) => {
                        let due = board_read.is_none_or(|at| at.elapsed() >= BATCH);
                        let board = match &snapshot {
                            Some(live) if due => {
                                board_read = Some(Instant::now());
                                read_board(&game, live, &mut keeper).await
                            }
                            _ => None,
                        };
                        publish.send_if_modified(|state| publish_into(state, snapshot, board));
                    }
                    Err(error) => tracing::error!(%error, "reading the live flight failed"),
                }
                tokio::select! {
                    _ = tokio::time::sleep(tick) => {}
                    _ = stopped.changed() => break,
                }
            }
        });
        (Self { live }, FlightFeedTask { stop, task })
    }

    /// The server-sent event stream of `viewer`'s page: the current snapshot and
    /// cash-outs at once, then each change, with a keep-alive comment when nothing
    /// changes for a while.
    pub fn events(&self, viewer: Viewer) -> impl Stream<Item = Bytes> + use<> {
        let mut live = self.live.clone();
        live.mark_changed();
        let page = PageState {
            live,
            viewer,
            flight_version: None,
            board: None,
        };
        stream::unfold(page, |mut page| async move {
            let chunk = match tokio::time::timeout(KEEP_ALIVE, page.live.changed()).await {
                Ok(Ok(())) => page.next_chunk(),
                Ok(Err(_closed)) => return None,
                Err(_quiet) => Bytes::from_static(b": keep-alive\n\n"),
            };
            Some((chunk, page))
        })
    }
}

impl PageState {
    /// The events this page has not been sent yet: the flight when it changed, then its
    /// cash-outs when they did.
    fn next_chunk(&mut self) -> Bytes {
        let state = self.live.borrow_and_update().clone();
        let mut chunk = BytesMut::new();
        if self.flight_version != Some(state.flight_version) {
            self.flight_version = Some(state.flight_version);
            chunk.extend_from_slice(&flight_event(state.flight));
        }
        if let Some(board) = state.board {
            let sent = self.board.as_ref().is_some_and(|last| Arc::ptr_eq(last, &board));
            if !sent {
                chunk.extend_from_slice(&board_chunk(&board, self.board.as_deref(), self.viewer));
                self.board = Some(board);
            }
        }
        chunk.freeze()
    }
}

impl FlightFeedTask {
    /// Asks the task to stop and waits for it.
    pub async fn stop(mut self) {
        let _ = self.stop.send(true);
        if let Err(error) = (&mut self.task).await {
            tracing::error!(%error, "the live flight feed ended abnormally");
        }
    }
}

impl Drop for FlightFeedTask {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The flight's new board, if it changed; a failed read is logged and skipped.
async fn read_board(game: &FlightGame, live: &LiveFlight, keeper: &mut BoardKeeper) -> Option<CashOutBoard> {
    game.read_cash_out_board(live, keeper)
        .await
        .inspect_err(|error| tracing::error!(%error, "reading the live flight's cash-outs failed"))
        .ok()
        .flatten()
}

/// Puts what changed into `state`; whether anything did.
fn publish_into(state: &mut FeedState, snapshot: Option<LiveFlight>, board: Option<CashOutBoard>) -> bool {
    let mut changed = false;
    if !same_moment(state.flight.as_ref(), snapshot.as_ref()) {
        state.flight = snapshot;
        state.flight_version += 1;
        changed = true;
    }
    if let Some(board) = board {
        state.board = Some(Arc::new(RenderedBoard::of(board)));
        changed = true;
    }
    changed
}

/// Whether two snapshots show the same moment of the same flight (the multiplier and the
/// snapshot's time move on their own and are not a change).
fn same_moment(a: Option<&LiveFlight>, b: Option<&LiveFlight>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            (a.id, a.phase, a.crash, &a.revealed_seed, a.ended_at)
                == (b.id, b.phase, b.crash, &b.revealed_seed, b.ended_at)
        }
        (None, None) => true,
        _ => false,
    }
}

/// One `flight` event carrying the snapshot (or `null` before the first flight), stamped
/// with the time it is written so the page can set its clock by it. While the flight is
/// in the air the event carries no multiplier: the snapshot may be older than the event,
/// and the page computes the multiplier from `takeOffAt` and `serverTime`.
fn flight_event(snapshot: Option<LiveFlight>) -> Bytes {
    let body = snapshot.map(|mut live| {
        live.at = time::OffsetDateTime::now_utc();
        if live.phase == opinion_flight::FlightPhase::InFlight {
            live.multiplier = None;
        }
        LiveFlightBody::from(live)
    });
    let json = serde_json::to_string(&body).unwrap_or_else(|_| "null".to_owned());
    Bytes::from(format!("event: flight\ndata: {json}\n\n"))
}

/// The `cashouts` event `viewer`'s page needs after `last`: the shared bytes when none of
/// the cash-outs is the viewer's and the page has every earlier one, else its own.
fn board_chunk(board: &RenderedBoard, last: Option<&RenderedBoard>, viewer: Viewer) -> Bytes {
    let (operator, user) = viewer;
    let theirs = |cash_outs: &[FeedCashOut]| cash_outs.iter().any(|cash_out| cash_out.is_of(operator, user));
    let current = &board.board;
    match last
        .map(|last| &last.board)
        .filter(|last| last.flight == current.flight)
    {
        Some(last) => {
            let cash_outs = current.after(last.seq);
            if last.seq == current.previous_seq && !theirs(cash_outs) {
                board.latest.clone()
            } else {
                cash_outs_event(current, cash_outs, false, Some(viewer))
            }
        }
        None if theirs(&current.recent) => cash_outs_event(current, &current.recent, true, Some(viewer)),
        None => board.whole.clone(),
    }
}

/// One `cashouts` event.
fn cash_outs_event(board: &CashOutBoard, cash_outs: &[FeedCashOut], reset: bool, viewer: Option<Viewer>) -> Bytes {
    let body = CashOutsBody::of(board, cash_outs, reset, viewer);
    let json = serde_json::to_string(&body).unwrap_or_else(|_| "null".to_owned());
    Bytes::from(format!("event: cashouts\ndata: {json}\n\n"))
}
