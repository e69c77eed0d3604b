//! The driver: the one instance holding the `DriverLock` boards, flies, crashes and
//! settles flights, one step at a time, each step one `FlightChange` with a
//! compare-and-set on the flight's phase (two drivers racing can never both move a
//! flight). A step with more tickets to move than `tickets_a_step` is stored in batches,
//! each holding the flight in its phase, the phase's change with the last. Every step
//! starts from what the store says, so a driver that takes over
//! continues exactly where the last one stopped: a flight in the air is resumed (its
//! crash instant is fixed by its take-off), a flight still boarding is cancelled and its
//! tickets refunded (FLIGHT.md §1, "Restarts").

use std::time::Duration;

use opinion_core::{FlightChainId, FlightId};
use opinion_flight::{
    FlightPhase, FlightPlan, Multiplier, Recovery, Salt, Seed, TicketEvent, TicketStatus, commitment, crash_point,
    first_ms_at, multiplier_at, next_boarding_at, recover, seed_of_flight,
};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::flight::FlightGame;
use crate::flight::events::RefundReason;
use crate::flight::model::{ChainRecord, FlightRecord, TicketRecord};
use crate::flight::ports::{FlightChange, FlightUpdate};

/// What one driver step did, and how long the driver may sleep before the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriverStep {
    /// The move made, if any (for logs and tests).
    pub moved: Option<FlightMove>,
    /// When the next step is due.
    pub next_in: Duration,
}

impl DriverStep {
    /// Whether this step stored a batch and the next one continues it: the driver's loop
    /// keeps a take-over's step a take-over until it is whole.
    pub fn continues(&self) -> bool {
        matches!(self.moved, Some(FlightMove::Batch(_)))
    }
}

/// A move of the driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlightMove {
    /// A new flight opened for boarding.
    Boarded,
    /// Boarding closed and the flight took off.
    TookOff,
    /// Tickets whose auto cash-out target was reached were cashed out.
    AutoCashedOut(usize),
    /// The flight crashed and its seed was revealed.
    Crashed,
    /// The tickets still flying at the crash were settled as lost.
    Settled(usize),
    /// A flight found boarding by a new driver was cancelled and its tickets refunded.
    Cancelled,
    /// Part of a step with more tickets than one step moves (`tickets_a_step`): that
    /// many were moved while the flight held its phase, and the step goes on at once.
    Batch(usize),
    /// Another driver moved the flight first; nothing was stored.
    Raced,
}

/// What one batch of a step's tickets came to.
struct BatchOutcome {
    /// Tickets moved.
    moved: usize,
    /// Whether another driver moved the flight first (nothing was stored).
    raced: bool,
    /// Whether more tickets are left for the step than one batch could take.
    more: bool,
}

impl FlightGame {
    /// One step of the driver at the clock's now. `taking_over` is true on the first
    /// step after the lease was acquired, and on the steps that continue it in batches:
    /// the flight found then is recovered by the restart rule before anything else.
    #[tracing::instrument(skip_all, fields(taking_over))]
    pub async fn drive(&self, taking_over: bool) -> Result<DriverStep, AppError> {
        let now = self.ports.clock.now();
        let Some(flight) = self.ports.store.latest_flight().await? else {
            return self.board(now).await;
        };
        if taking_over && recover(flight.phase) == Recovery::Cancel {
            return self.cancel(flight, now).await;
        }
        match flight.phase {
            FlightPhase::Boarding if now >= flight.take_off_at => self.take_off(flight).await,
            FlightPhase::Boarding => Ok(self.wait_until(flight.take_off_at, now)),
            FlightPhase::InFlight if now >= flight.crash_at => self.crash(flight, now).await,
            FlightPhase::InFlight => self.fly(flight, now).await,
            FlightPhase::Crashed if flight.settled_at.is_none() => {
                let settle_at = flight.crash_at + self.settings.settle_delay;
                if now >= settle_at {
                    self.settle(flight, now).await
                } else {
                    Ok(self.wait_until(settle_at, now))
                }
            }
            FlightPhase::Crashed | FlightPhase::Cancelled => {
                let ended_at = flight.crashed_at.or(flight.cancelled_at).unwrap_or(flight.crash_at);
                let next = next_boarding_at(ended_at, self.settings.timing);
                if now >= next {
                    self.board(now).await
                } else {
                    Ok(self.wait_until(next, now))
                }
            }
        }
    }

    /// Opens the next flight of the current chain (a new chain when it is used up).
    async fn board(&self, now: OffsetDateTime) -> Result<DriverStep, AppError> {
        let (chain, number) = self.next_in_chain(now).await?;
        let terminal = self.ports.store.terminal_seed(chain.id).await?;
        let seed = seed_of_flight(&terminal, chain.length, number).map_err(internal)?;
        let crash = crash_point(&seed, &chain.salt);
        let plan = FlightPlan::new(now, self.settings.timing, crash);
        let flight = FlightRecord {
            id: FlightId::from_ulid(self.ports.random.ulid()),
            chain_id: chain.id,
            number,
            phase: FlightPhase::Boarding,
            crash,
            boarding_at: plan.boarding_at,
            take_off_at: plan.take_off_at,
            crash_at: plan.crash_at,
            revealed_seed: None,
            crashed_at: None,
            cancelled_at: None,
            settled_at: None,
            salt: chain.salt,
            commitment: chain.commitment,
            chain_length: chain.length,
        };
        if !self.ports.store.open_flight(&flight).await? {
            return Ok(self.raced());
        }
        tracing::info!(flight_id = %flight.id, number, "boarding");
        Ok(DriverStep {
            moved: Some(FlightMove::Boarded),
            next_in: until(flight.take_off_at, now),
        })
    }

    /// The chain the next flight plays and its number in it.
    async fn next_in_chain(&self, now: OffsetDateTime) -> Result<(ChainRecord, u32), AppError> {
        if let Some((chain, last)) = self.ports.store.current_chain().await? {
            let number = last.map_or(1, |last| last + 1);
            if number <= chain.length.get() {
                return Ok((chain, number));
            }
        }
        let terminal = Seed::from_bytes(self.ports.random.secret_bytes());
        let id = FlightChainId::from_ulid(self.ports.random.ulid());
        let chain = ChainRecord {
            id,
            length: self.settings.chain_length,
            salt: Salt::new(format!("opinion-flight:{id}")).map_err(internal)?,
            commitment: commitment(&terminal, self.settings.chain_length),
            created_at: now,
        };
        self.ports.store.create_chain(&chain, &terminal).await?;
        tracing::info!(chain_id = %chain.id, commitment = %chain.commitment.to_hex(), "new seed chain");
        Ok((chain, 1))
    }

    async fn take_off(&self, flight: FlightRecord) -> Result<DriverStep, AppError> {
        let now = flight.take_off_at;
        let mut next = flight.clone();
        next.phase = FlightPhase::InFlight;
        let change = FlightChange {
            flight: Some(FlightUpdate {
                expected: FlightPhase::Boarding,
                flight: next,
            }),
            ..FlightChange::default()
        };
        if !self.ports.store.apply_flight_change(&change).await? {
            return Ok(self.raced());
        }
        tracing::info!(flight_id = %flight.id, "took off");
        Ok(DriverStep {
            moved: Some(FlightMove::TookOff),
            next_in: self.tick_until(flight.crash_at, now),
        })
    }

    /// In the air: cashes out the tickets whose auto target the curve has reached.
    async fn fly(&self, flight: FlightRecord, now: OffsetDateTime) -> Result<DriverStep, AppError> {
        let elapsed = ms_since_take_off(&flight, now);
        let reached = multiplier_at(elapsed);
        let batch = self.auto_cash_out(&flight, reached, now, None).await?;
        Ok(DriverStep {
            moved: if batch.raced {
                Some(FlightMove::Raced)
            } else {
                (batch.moved > 0).then_some(FlightMove::AutoCashedOut(batch.moved))
            },
            next_in: if batch.more {
                Duration::ZERO
            } else {
                self.tick_until(flight.crash_at, now)
            },
        })
    }

    /// Cashes out up to a step's worth of the flight's active tickets whose auto target
    /// is at most `reached`, with `flight_update` (the crash) when no more are due.
    async fn auto_cash_out(
        &self,
        flight: &FlightRecord,
        reached: Multiplier,
        now: OffsetDateTime,
        flight_update: Option<FlightUpdate>,
    ) -> Result<BatchOutcome, AppError> {
        let limit = self.settings.tickets_a_step;
        let due = self.ports.store.tickets_due(flight.id, reached, limit).await?;
        let more = more_than_a_batch(due.len(), limit);
        let flight_update = flight_update.filter(|_| !more);
        let mut change = FlightChange {
            flight_must_be: flight_update.is_none().then_some((flight.id, FlightPhase::InFlight)),
            flight: flight_update,
            ..FlightChange::default()
        };
        for ticket in due {
            let Some(target) = ticket.auto_cash_out.filter(|target| *target <= reached) else {
                continue;
            };
            let reached_at = flight.take_off_at + ms(first_ms_at(target));
            self.cash_out_into(&mut change, ticket, target, reached_at, now)?;
        }
        let moved = change.tickets.len();
        if moved == 0 && change.flight.is_none() {
            return Ok(BatchOutcome {
                moved,
                raced: false,
                more,
            });
        }
        let stored = self.ports.store.apply_flight_change(&change).await?;
        Ok(BatchOutcome {
            moved,
            raced: !stored,
            more,
        })
    }

    /// The crash: the seed is revealed and the tickets whose target equals the crash point
    /// win; the others are settled after the settle delay.
    async fn crash(&self, flight: FlightRecord, now: OffsetDateTime) -> Result<DriverStep, AppError> {
        let terminal = self.ports.store.terminal_seed(flight.chain_id).await?;
        let seed = seed_of_flight(&terminal, flight.chain_length, flight.number).map_err(internal)?;
        let mut crashed = flight.clone();
        crashed.phase = FlightPhase::Crashed;
        crashed.revealed_seed = Some(seed);
        crashed.crashed_at = Some(flight.crash_at);
        let update = FlightUpdate {
            expected: FlightPhase::InFlight,
            flight: crashed,
        };
        let batch = self.auto_cash_out(&flight, flight.crash, now, Some(update)).await?;
        if batch.raced {
            return Ok(self.raced());
        }
        if batch.more {
            return Ok(self.batch(batch.moved));
        }
        tracing::info!(flight_id = %flight.id, crash = %flight.crash, "crashed");
        Ok(DriverStep {
            moved: Some(FlightMove::Crashed),
            next_in: until(flight.crash_at + self.settings.settle_delay, now),
        })
    }

    /// The tickets still active after the crash are lost.
    async fn settle(&self, flight: FlightRecord, now: OffsetDateTime) -> Result<DriverStep, AppError> {
        let (active, more) = self.active_batch(&flight).await?;
        let mut settled = flight.clone();
        settled.settled_at = Some(now);
        let mut change = batch_change(
            FlightUpdate {
                expected: FlightPhase::Crashed,
                flight: settled,
            },
            more,
        );
        for ticket in active {
            self.lose_into(&mut change, &flight, ticket, now)?;
        }
        let lost = change.tickets.len();
        if !self.ports.store.apply_flight_change(&change).await? {
            return Ok(self.raced());
        }
        if more {
            return Ok(self.batch(lost));
        }
        let next = next_boarding_at(flight.crash_at, self.settings.timing);
        Ok(DriverStep {
            moved: Some(FlightMove::Settled(lost)),
            next_in: until(next, now),
        })
    }

    /// A flight found boarding by a new driver: cancelled, every paid ticket refunded.
    /// Only a take-over's step cancels, so the driver's loop keeps its steps take-overs
    /// while they continue in batches ([`DriverStep::continues`]).
    async fn cancel(&self, flight: FlightRecord, now: OffsetDateTime) -> Result<DriverStep, AppError> {
        let (active, more) = self.active_batch(&flight).await?;
        let mut cancelled = flight.clone();
        cancelled.phase = FlightPhase::Cancelled;
        cancelled.cancelled_at = Some(now);
        let mut change = batch_change(
            FlightUpdate {
                expected: FlightPhase::Boarding,
                flight: cancelled,
            },
            more,
        );
        for ticket in active {
            self.refund_into(
                &mut change,
                ticket,
                TicketEvent::FlightCancelled,
                RefundReason::FlightCancelled,
                now,
            )?;
        }
        if !self.ports.store.apply_flight_change(&change).await? {
            return Ok(self.raced());
        }
        if more {
            return Ok(self.batch(change.tickets.len()));
        }
        tracing::warn!(flight_id = %flight.id, refunded = change.tickets.len(), "a flight found boarding after a restart was cancelled");
        Ok(DriverStep {
            moved: Some(FlightMove::Cancelled),
            next_in: until(next_boarding_at(now, self.settings.timing), now),
        })
    }

    /// Up to a step's worth of the flight's active tickets, and whether more are left.
    async fn active_batch(&self, flight: &FlightRecord) -> Result<(Vec<TicketRecord>, bool), AppError> {
        let limit = self.settings.tickets_a_step;
        let active = self
            .ports
            .store
            .flight_tickets(flight.id, &[TicketStatus::Active], limit)
            .await?;
        let more = more_than_a_batch(active.len(), limit);
        Ok((active, more))
    }

    /// A batch was stored and more of the step is left: the driver goes on at once.
    fn batch(&self, moved: usize) -> DriverStep {
        tracing::debug!(moved, "a batch of the step's tickets moved; more to come");
        DriverStep {
            moved: Some(FlightMove::Batch(moved)),
            next_in: Duration::ZERO,
        }
    }

    fn raced(&self) -> DriverStep {
        tracing::warn!("another driver moved the flight first");
        DriverStep {
            moved: Some(FlightMove::Raced),
            next_in: Duration::ZERO,
        }
    }

    fn wait_until(&self, at: OffsetDateTime, now: OffsetDateTime) -> DriverStep {
        DriverStep {
            moved: None,
            next_in: until(at, now),
        }
    }

    fn tick_until(&self, at: OffsetDateTime, now: OffsetDateTime) -> Duration {
        until(at, now).min(self.settings.tick)
    }
}

/// Whether a batch read with `limit` may have left tickets behind: it came back full.
fn more_than_a_batch(read: usize, limit: u32) -> bool {
    read >= usize::try_from(limit).unwrap_or(usize::MAX)
}

/// A step's change for one batch of its tickets: the flight's own `update` rides with
/// the last batch; an earlier one only holds the flight in the phase `update` expects.
fn batch_change(update: FlightUpdate, more: bool) -> FlightChange {
    if more {
        FlightChange {
            flight_must_be: Some((update.flight.id, update.expected)),
            ..FlightChange::default()
        }
    } else {
        FlightChange {
            flight: Some(update),
            ..FlightChange::default()
        }
    }
}

/// Whole milliseconds since the flight took off at `now` (0 before).
pub(crate) fn ms_since_take_off(flight: &FlightRecord, now: OffsetDateTime) -> u64 {
    let elapsed = (now - flight.take_off_at).whole_milliseconds();
    u64::try_from(elapsed).unwrap_or(0)
}

/// `millis` milliseconds as a time span.
pub(crate) fn ms(millis: u64) -> time::Duration {
    time::Duration::milliseconds(i64::try_from(millis).unwrap_or(i64::MAX))
}

/// How long from `now` until `at` (zero when past).
fn until(at: OffsetDateTime, now: OffsetDateTime) -> Duration {
    Duration::try_from(at - now).unwrap_or(Duration::ZERO)
}

pub(crate) fn internal(error: impl std::fmt::Display) -> AppError {
    AppError::Internal(error.to_string())
}
