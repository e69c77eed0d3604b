//! Other players' cash-outs on the live feed. Flights are platform-wide, so a page shows
//! cash-outs of every operator's players, anonymised: a cash-out is its multiplier and
//! the 1-2-5 band of its payout (`opinion_flight::payout_band`), nothing else. No user,
//! external user, operator or ticket id ever leaves the service, and no exact amount,
//! so nobody can follow a player from flight to flight; whose a cash-out is stays in
//! memory only to mark a player's own cash-outs on that player's stream.
//!
//! Each instance reads the flight's counts and recent cash-outs once per batch (not per
//! page), over every operator, so a cash-out stored by any instance reaches pages of
//! every instance. The read takes the cash-outs of the last `LOOKBACK` (the store may
//! commit one a little after its instant; an auto cash-out's instant is when the curve
//! reached it), and the `BoardKeeper` drops the ones it already showed.

use std::collections::HashSet;

use opinion_core::{FlightId, OperatorId, TicketId, UserId};
use opinion_flight::{FlightPhase, Multiplier, Rupiah, payout_band};
use time::Duration;

use crate::error::AppError;
use crate::flight::FlightGame;
use crate::flight::LiveFlight;
use crate::flight::ports::{FeedCashOutRow, FeedTally};

/// How far back each read looks for cash-outs not yet shown.
pub const LOOKBACK: Duration = Duration::seconds(3);

/// The most cash-outs one read takes (the newest).
pub const READ_LIMIT: u32 = 200;

/// The most cash-outs one update carries, and a page joining is shown.
pub const MAX_LISTED: usize = 20;

/// One cash-out as every page may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedCashOut {
    /// Its place on the flight's board (1, 2, …), in the order shown.
    pub seq: u64,
    pub multiplier: Multiplier,
    /// The payout's band: the payout is at least this, below the next 1-2-5 step.
    pub payout_band: Rupiah,
    owner: (OperatorId, UserId),
}

impl FeedCashOut {
    /// Whether the cash-out is this player's (marked on the player's own stream only).
    pub fn is_of(&self, operator: OperatorId, user: UserId) -> bool {
        self.owner == (operator, user)
    }
}

/// What the feed shows of a flight's cash-outs: its counts and its latest cash-outs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashOutBoard {
    pub flight: FlightId,
    pub tally: FeedTally,
    /// The latest cash-outs, oldest first, at most `MAX_LISTED`.
    pub recent: Vec<FeedCashOut>,
    /// The newest cash-out's `seq` before the latest update (the update carries the
    /// cash-outs after it).
    pub previous_seq: u64,
    /// The newest cash-out's `seq` (0 before the first).
    pub seq: u64,
}

impl CashOutBoard {
    /// The cash-outs after `seq` that the board still holds, oldest first.
    pub fn after(&self, seq: u64) -> &[FeedCashOut] {
        let first = self.recent.partition_point(|cash_out| cash_out.seq <= seq);
        &self.recent[first..]
    }
}

/// Turns the store's reads of the current flight into board updates: each cash-out
/// shown once, anonymised, at most `MAX_LISTED` per update.
#[derive(Debug, Default)]
pub struct BoardKeeper {
    seen: HashSet<(OperatorId, TicketId)>,
    board: Option<CashOutBoard>,
}

impl BoardKeeper {
    /// The board as last updated.
    pub fn board(&self) -> Option<&CashOutBoard> {
        self.board.as_ref()
    }

    /// Takes one read of `flight`; the new board when anything changed (a new flight,
    /// new counts or new cash-outs).
    pub fn absorb(&mut self, flight: FlightId, tally: FeedTally, rows: Vec<FeedCashOutRow>) -> Option<CashOutBoard> {
        let current = self.board.as_ref().filter(|board| board.flight == flight);
        let (mut recent, seq, changed) = match current {
            Some(board) => (board.recent.clone(), board.seq, board.tally != tally),
            None => {
                self.seen.clear();
                (Vec::new(), 0, true)
            }
        };
        let mut fresh: Vec<FeedCashOutRow> = rows
            .into_iter()
            .filter(|row| self.seen.insert((row.operator_id, row.ticket_id)))
            .collect();
        if fresh.is_empty() && !changed {
            return None;
        }
        fresh.sort_by_key(|row| (row.cashed_out_at, row.ticket_id));
        let shown = &fresh[fresh.len().saturating_sub(MAX_LISTED)..];
        let mut next = seq;
        for row in shown {
            next += 1;
            recent.push(FeedCashOut {
                seq: next,
                multiplier: row.multiplier,
                payout_band: payout_band(row.payout),
                owner: (row.operator_id, row.user_id),
            });
        }
        recent.drain(..recent.len().saturating_sub(MAX_LISTED));
        let board = CashOutBoard {
            flight,
            tally,
            recent,
            previous_seq: seq,
            seq: next,
        };
        self.board = Some(board.clone());
        Some(board)
    }
}

impl FlightGame {
    /// Reads `live`'s counts and new cash-outs into `keeper` when they may have changed
    /// (the flight is boarding or flying, ended moments ago, or is new to the keeper);
    /// the new board when anything changed.
    pub async fn read_cash_out_board(
        &self,
        live: &LiveFlight,
        keeper: &mut BoardKeeper,
    ) -> Result<Option<CashOutBoard>, AppError> {
        let now = self.ports.clock.now();
        let known = keeper.board().is_some_and(|board| board.flight == live.id);
        let settling = LOOKBACK + Duration::try_from(self.settings.settle_delay).unwrap_or(LOOKBACK);
        let moving = match live.phase {
            FlightPhase::Boarding | FlightPhase::InFlight => true,
            FlightPhase::Crashed | FlightPhase::Cancelled => live.ended_at.is_none_or(|ended| now - ended <= settling),
        };
        if known && !moving {
            return Ok(None);
        }
        let (tally, rows) = self.ports.store.live_feed(live.id, now - LOOKBACK, READ_LIMIT).await?;
        Ok(keeper.absorb(live.id, tally, rows))
    }
}
