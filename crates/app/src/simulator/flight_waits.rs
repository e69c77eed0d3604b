//! The moments a simulated flight player waits for, read from the live flight as every
//! page sees it (nothing of a crash before its instant): a flight boarding with time
//! left to pay, the lowest cash-out, a target multiplier, and a ticket's settlement.
//! Every wait is bounded; the service's own clock decides what is reached.

use std::time::Duration;

use opinion_core::TicketId;
use opinion_flight::{FlightPhase, Multiplier, TicketStatus, first_ms_at};
use time::OffsetDateTime;
use tokio::time::Instant;

use crate::error::{AppError, ProblemCode};
use crate::flight::LiveFlight;
use crate::flight::model::TicketRecord;
use crate::players::PlayerPrincipal;
use crate::simulator::Simulator;

/// How long a purchase waits for a flight to board: longer than almost every flight
/// (one in about 1,300 flies longer than two minutes).
const BOARDING_WAIT: Duration = Duration::from_secs(120);

/// The boarding time a purchase needs left, so that its debit is answered before
/// take-off (a debit answered after it is refunded).
const BOARDING_LEFT: time::Duration = time::Duration::milliseconds(250);

/// How often the live flight is read while waiting.
const POLL: Duration = Duration::from_millis(50);

/// How long a ticket's settlement is waited for after its cash-out or crash: the driver
/// settles lost tickets a second after the crash.
const SETTLE_WAIT: Duration = Duration::from_secs(5);

/// The longest wait for a ticket's flight to reach a multiplier: the longest boarding
/// and the flight to 100.00x.
const FLIGHT_WAIT: Duration = Duration::from_secs(150);

/// The refusal reported when no flight boarded within the wait.
pub(crate) fn no_boarding_flight() -> AppError {
    AppError::Conflict {
        code: ProblemCode::BoardingClosed,
        detail: format!(
            "no flight boarded within {} s: is an instance driving flights?",
            BOARDING_WAIT.as_secs()
        ),
    }
}

/// What came of waiting for a target multiplier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reached {
    /// The multiplier reached the target while the flight flew.
    Target,
    /// The flight crashed (at this point, once public) or was cancelled first.
    Crashed(Option<Multiplier>),
    /// Another flight is being played: the ticket's is over.
    Over,
}

impl Simulator {
    /// The flight boarding now, or the next one to board within the wait, with time left
    /// to buy; `None` when none does.
    pub(crate) async fn next_boarding_flight(&self) -> Result<Option<LiveFlight>, AppError> {
        let deadline = Instant::now() + BOARDING_WAIT;
        loop {
            if let Some(flight) = self.flight.live_flight().await?
                && flight.phase == FlightPhase::Boarding
                && flight.take_off_at - flight.at >= BOARDING_LEFT
            {
                return Ok(Some(flight));
            }
            if Instant::now() >= deadline {
                return Ok(None);
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits, if the ticket's flight is the one being played, until it has reached the
    /// lowest cash-out (1.01x), so a cash-out asked during boarding is not refused as too
    /// early.
    pub(crate) async fn wait_for_lowest_cash_out(&self, ticket: &TicketRecord) -> Result<(), AppError> {
        let Some(flight) = self.flight.live_flight().await? else {
            return Ok(());
        };
        if flight.id == ticket.flight_id && matches!(flight.phase, FlightPhase::Boarding | FlightPhase::InFlight) {
            let lowest = flight.take_off_at + millis(first_ms_at(Multiplier::MIN_CASH_OUT));
            sleep_until(lowest, flight.at, FLIGHT_WAIT).await;
        }
        Ok(())
    }

    /// Waits until the ticket's flight reaches `target`, crashes or is over.
    pub(crate) async fn wait_for_target(&self, ticket: &TicketRecord, target: Multiplier) -> Result<Reached, AppError> {
        let deadline = Instant::now() + FLIGHT_WAIT;
        loop {
            let Some(flight) = self.flight.live_flight().await? else {
                return Ok(Reached::Over);
            };
            if flight.id != ticket.flight_id {
                return Ok(Reached::Over);
            }
            match flight.phase {
                FlightPhase::Crashed | FlightPhase::Cancelled => return Ok(Reached::Crashed(flight.crash)),
                FlightPhase::Boarding | FlightPhase::InFlight => {}
            }
            let target_at = flight.take_off_at + millis(first_ms_at(target));
            if flight.at >= target_at {
                return Ok(Reached::Target);
            }
            if Instant::now() >= deadline {
                return Ok(Reached::Over);
            }
            sleep_until(target_at, flight.at, POLL).await;
        }
    }

    /// The ticket after one money pass, once settled or in review, or as it is when the
    /// settlement wait is over.
    pub(crate) async fn settled_ticket(
        &self,
        player: &PlayerPrincipal,
        id: TicketId,
    ) -> Result<TicketRecord, AppError> {
        self.flight.run_money_pass().await?;
        let deadline = Instant::now() + SETTLE_WAIT;
        loop {
            let ticket = self.flight.player_ticket(player, id).await?;
            let decided = ticket.settled_at.is_some() || ticket.status == TicketStatus::Review;
            if decided || Instant::now() >= deadline {
                return Ok(ticket);
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// A fresh id of the simulator's own (`sim-…`), for client order and ticket ids.
    pub(crate) fn simulator_id(&self) -> String {
        format!("sim-{}", self.ports.random.ulid().to_string().to_ascii_lowercase())
    }
}

fn millis(ms: u64) -> time::Duration {
    time::Duration::milliseconds(i64::try_from(ms).unwrap_or(i64::MAX))
}

/// Sleeps from `now` until `at` by the service's clock, at most `longest`.
async fn sleep_until(at: OffsetDateTime, now: OffsetDateTime, longest: Duration) {
    let left = Duration::try_from(at - now).unwrap_or_default();
    tokio::time::sleep(left.min(longest)).await;
}
