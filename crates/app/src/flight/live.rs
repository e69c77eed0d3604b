//! What a player's page sees of the flight being played: its phase by the server's clock,
//! its timeline, and, only once the crash instant has passed, its crash point; the seed
//! only once the crash is stored. Pages compute the climbing multiplier themselves from
//! the take-off instant and the server's time (the curve is public), so the feed changes
//! only when the flight changes phase and one snapshot serves every connected page.

use opinion_core::{FlightId, OperatorId, Page, PageRequest, TicketKind, UserId};
use opinion_flight::{FlightPhase, Multiplier, Seed, multiplier_at};
use time::OffsetDateTime;

use crate::error::AppError;
use crate::flight::FlightGame;
use crate::flight::engine::ms_since_take_off;
use crate::flight::model::{FlightRecord, TicketRecord};
use crate::flight::ports::TicketFilter;

/// A flight as every page may see it at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveFlight {
    pub id: FlightId,
    /// Its place in its chain.
    pub number: u32,
    /// The phase by the server's clock at `at` (crashed once the crash instant passed,
    /// even before the driver stored it).
    pub phase: FlightPhase,
    pub boarding_at: OffsetDateTime,
    pub take_off_at: OffsetDateTime,
    /// The multiplier at `at` while in the air; the crash point once crashed.
    pub multiplier: Option<Multiplier>,
    /// The crash point, once the crash instant has passed.
    pub crash: Option<Multiplier>,
    /// The flight's seed, once the crash is stored.
    pub revealed_seed: Option<Seed>,
    /// When the flight crashed or was cancelled.
    pub ended_at: Option<OffsetDateTime>,
    /// The server's time of the snapshot (pages correct their clock with it).
    pub at: OffsetDateTime,
}

impl LiveFlight {
    /// The public view of `flight` at `at`: nothing of the crash before its instant.
    pub fn of(flight: &FlightRecord, at: OffsetDateTime) -> Self {
        let crashed =
            flight.phase == FlightPhase::Crashed || (flight.phase == FlightPhase::InFlight && at >= flight.crash_at);
        let phase = match flight.phase {
            FlightPhase::Boarding if at >= flight.take_off_at => FlightPhase::InFlight,
            _ if crashed => FlightPhase::Crashed,
            phase => phase,
        };
        let crash = crashed.then_some(flight.crash);
        let multiplier = match phase {
            FlightPhase::InFlight => Some(multiplier_at(ms_since_take_off(flight, at)).min(flight.crash)),
            FlightPhase::Crashed => crash,
            FlightPhase::Boarding | FlightPhase::Cancelled => None,
        };
        Self {
            id: flight.id,
            number: flight.number,
            phase,
            boarding_at: flight.boarding_at,
            take_off_at: flight.take_off_at,
            multiplier,
            crash,
            revealed_seed: flight.revealed_seed.clone(),
            ended_at: if crashed {
                Some(flight.crashed_at.unwrap_or(flight.crash_at))
            } else {
                flight.cancelled_at
            },
            at,
        }
    }
}

impl FlightGame {
    /// The flight being played (or the last one, between flights), as pages see it now.
    pub async fn live_flight(&self) -> Result<Option<LiveFlight>, AppError> {
        let now = self.ports.clock.now();
        let latest = self.ports.store.latest_flight().await?;
        Ok(latest.map(|flight| LiveFlight::of(&flight, now)))
    }

    /// One page of the player's own tickets, newest first.
    pub async fn player_tickets(
        &self,
        operator: OperatorId,
        user: UserId,
        page: PageRequest<TicketKind>,
    ) -> Result<Page<TicketRecord, TicketKind>, AppError> {
        let filter = TicketFilter {
            user: Some(user),
            flight: None,
            from: None,
            to: None,
        };
        let before = page.after.map(|cursor| cursor.position());
        let limit = u32::from(page.limit.get()) + 1;
        let rows = self.ports.store.tickets(operator, filter, before, limit).await?;
        Ok(Page::from_overfetch(rows, page.limit, |ticket| ticket.id))
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::{FlightChainId, FlightId};
    use opinion_flight::{ChainLength, FlightPhase, Multiplier, Salt, Seed};
    use time::Duration;

    use super::LiveFlight;
    use crate::flight::model::FlightRecord;
    use crate::test_support::NOW;

    fn flight(phase: FlightPhase) -> FlightRecord {
        FlightRecord {
            id: FlightId::from_u128(1),
            chain_id: FlightChainId::from_u128(2),
            number: 3,
            phase,
            crash: Multiplier::from_hundredths(200),
            boarding_at: NOW,
            take_off_at: NOW + Duration::seconds(5),
            crash_at: NOW + Duration::milliseconds(5_000 + 11_552),
            revealed_seed: (phase == FlightPhase::Crashed).then(|| Seed::from_bytes([7; 32])),
            crashed_at: None,
            cancelled_at: None,
            settled_at: None,
            salt: Salt::new("s").expect("salt"),
            commitment: Seed::from_bytes([1; 32]),
            chain_length: ChainLength::new(10).expect("length"),
        }
    }

    #[test]
    fn nothing_of_the_crash_shows_before_its_instant() {
        let boarding = LiveFlight::of(&flight(FlightPhase::Boarding), NOW + Duration::seconds(1));
        assert_eq!(
            (boarding.phase, boarding.multiplier, boarding.crash),
            (FlightPhase::Boarding, None, None)
        );
        let climbing = LiveFlight::of(&flight(FlightPhase::InFlight), NOW + Duration::seconds(6));
        assert_eq!(climbing.phase, FlightPhase::InFlight);
        assert_eq!(climbing.multiplier, Some(Multiplier::from_hundredths(106)));
        assert_eq!((climbing.crash, climbing.revealed_seed), (None, None));
        let just_before = LiveFlight::of(&flight(FlightPhase::InFlight), NOW + Duration::milliseconds(16_551));
        assert_eq!((just_before.phase, just_before.crash), (FlightPhase::InFlight, None));
    }

    #[test]
    fn the_crash_point_shows_from_the_crash_instant_and_the_seed_once_stored() {
        let at_crash = LiveFlight::of(&flight(FlightPhase::InFlight), NOW + Duration::milliseconds(16_552));
        assert_eq!(at_crash.phase, FlightPhase::Crashed);
        assert_eq!(at_crash.crash, Some(Multiplier::from_hundredths(200)));
        assert_eq!(at_crash.revealed_seed, None);
        let stored = LiveFlight::of(&flight(FlightPhase::Crashed), NOW + Duration::seconds(20));
        assert_eq!(stored.multiplier, Some(Multiplier::from_hundredths(200)));
        assert_eq!(stored.revealed_seed, Some(Seed::from_bytes([7; 32])));
    }

    #[test]
    fn a_boarding_flight_past_its_take_off_shows_as_in_flight() {
        let late = LiveFlight::of(&flight(FlightPhase::Boarding), NOW + Duration::seconds(6));
        assert_eq!(late.phase, FlightPhase::InFlight);
        assert_eq!(late.crash, None);
    }
}
