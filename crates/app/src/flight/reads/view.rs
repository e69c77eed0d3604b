//! A flight as anyone may see it: the crash point, the revealed seed and the crash
//! instant exist from before boarding, but a read shows them only once the flight has
//! crashed. Before that, anyone holding the crash point or its instant could cash out
//! exactly before it.

use opinion_core::{FlightChainId, FlightId};
use opinion_flight::{ChainLength, FlightPhase, Multiplier, Salt, Seed};
use time::OffsetDateTime;

use crate::flight::model::FlightRecord;

/// A flight's public data. Built only through `FlightView::of`, which withholds what is
/// secret until the crash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightView {
    pub id: FlightId,
    pub chain_id: FlightChainId,
    /// Its place `k` in the chain.
    pub number: u32,
    pub phase: FlightPhase,
    /// The chain's salt.
    pub salt: Salt,
    /// The chain's commitment, `hex(seed[0])`.
    pub commitment: Seed,
    /// How many flights the chain plays.
    pub chain_length: ChainLength,
    pub boarding_at: OffsetDateTime,
    /// The planned take-off (fixed when boarding opens, public from then on).
    pub take_off_at: OffsetDateTime,
    /// Revealed once crashed.
    pub crash: Option<Multiplier>,
    /// `seed[k]`, revealed once crashed.
    pub seed: Option<Seed>,
    /// The crash instant, once crashed.
    pub crashed_at: Option<OffsetDateTime>,
    /// When it was cancelled (a restart during boarding), if it was.
    pub cancelled_at: Option<OffsetDateTime>,
}

impl FlightView {
    /// The public view of `flight`: the crash point, seed and crash instant only once
    /// it has crashed.
    pub fn of(flight: FlightRecord) -> Self {
        let crashed = flight.phase == FlightPhase::Crashed;
        Self {
            id: flight.id,
            chain_id: flight.chain_id,
            number: flight.number,
            phase: flight.phase,
            salt: flight.salt,
            commitment: flight.commitment,
            chain_length: flight.chain_length,
            boarding_at: flight.boarding_at,
            take_off_at: flight.take_off_at,
            crash: crashed.then_some(flight.crash),
            seed: flight.revealed_seed.filter(|_| crashed),
            crashed_at: flight.crashed_at.filter(|_| crashed),
            cancelled_at: flight.cancelled_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::flight_reads::flight;

    #[test]
    fn nothing_secret_shows_before_the_crash() {
        for phase in [FlightPhase::Boarding, FlightPhase::InFlight, FlightPhase::Cancelled] {
            let mut record = flight(1, phase);
            // Even a record that carried them (a reader must not rely on the store).
            record.revealed_seed = Some(Seed::from_bytes([7; 32]));
            record.crashed_at = Some(record.crash_at);
            let view = FlightView::of(record);
            assert_eq!(view.crash, None, "{phase:?}");
            assert_eq!(view.seed, None, "{phase:?}");
            assert_eq!(view.crashed_at, None, "{phase:?}");
        }
    }

    #[test]
    fn a_crashed_flight_shows_its_crash_point_seed_and_instant() {
        let mut record = flight(1, FlightPhase::Crashed);
        record.revealed_seed = Some(Seed::from_bytes([7; 32]));
        record.crashed_at = Some(record.crash_at);
        let view = FlightView::of(record.clone());
        assert_eq!(view.crash, Some(record.crash));
        assert_eq!(view.seed, record.revealed_seed);
        assert_eq!(view.crashed_at, Some(record.crash_at));
        assert_eq!(view.commitment, record.commitment);
    }
}
