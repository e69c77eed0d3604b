//! The live flight fan-out: one task per instance reads the flight being played every
//! tick and publishes its public snapshot on a watch channel only when it changes
//! (phase, crash, seed); every connected page's event stream reads the channel. A
//! thousand pages cost what one costs in database reads; pages compute the climbing
//! multiplier themselves from the take-off instant and the server's time.

use std::time::Duration;

use actix_web::web::Bytes;
use futures_util::stream::{self, Stream};
use opinion_app::flight::{FlightGame, LiveFlight};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::player::flight_dto::LiveFlightBody;

/// How often a page with nothing new hears a comment, so proxies keep the stream open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The receiving end of the live flight; cheap to clone into every handler.
#[derive(Clone)]
pub struct FlightFeed {
    live: watch::Receiver<Option<LiveFlight>>,
}

/// The task publishing the feed; `stop` ends it, and dropping it aborts it.
pub struct FlightFeedTask {
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl FlightFeed {
    /// Starts reading the flight every `tick` on the current runtime.
    pub fn start(game: FlightGame, tick: Duration) -> (Self, FlightFeedTask) {
        let (publish, live) = watch::channel(None);
        let (stop, mut stopped) = watch::channel(false);
        let task = tokio::spawn(async move {
            loop {
                match game.live_flight().await {
                    Ok(snapshot) => {
                        publish.send_if_modified(|current| {
                            let changed = !same_moment(current.as_ref(), snapshot.as_ref());
                            if changed {
                                *current = snapshot;
                            }
                            changed
                        });
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

    /// The latest snapshot.
    pub fn current(&self) -> Option<LiveFlight> {
        self.live.borrow().clone()
    }

    /// The server-sent event stream of one page: the current snapshot at once, then
    /// each change, with a keep-alive comment when nothing changes for a while.
    pub fn events(&self) -> impl Stream<Item = Result<Bytes, actix_web::Error>> + use<> {
        let mut live = self.live.clone();
        live.mark_changed();
        stream::unfold(live, |mut live| async move {
            let chunk = match tokio::time::timeout(KEEP_ALIVE, live.changed()).await {
                Ok(Ok(())) => event(live.borrow_and_update().clone()),
                Ok(Err(_closed)) => return None,
                Err(_quiet) => Bytes::from_static(b": keep-alive\n\n"),
            };
            Some((Ok(chunk), live))
        })
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
fn event(snapshot: Option<LiveFlight>) -> Bytes {
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
