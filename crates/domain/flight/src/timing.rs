//! How long a flight boards and how long the pause after a crash lasts before the next
//! flight boards: configuration, bounded so that a typo cannot stall the game or leave
//! players no time to buy.

use time::Duration;

/// Boarding and pause lengths, in whole milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlightTiming {
    boarding_ms: u64,
    pause_ms: u64,
}

/// A length outside its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FlightTimingError {
    /// Boarding outside 1 000 to 60 000 ms.
    #[error("boarding lasts 1000 to 60000 ms, got {0}")]
    BoardingOutOfRange(u64),
    /// A pause outside 0 to 60 000 ms.
    #[error("the pause after a crash lasts 0 to 60000 ms, got {0}")]
    PauseOutOfRange(u64),
}

impl FlightTiming {
    /// The shortest and longest boarding, in milliseconds.
    pub const BOARDING_MS: std::ops::RangeInclusive<u64> = 1_000..=60_000;
    /// The shortest and longest pause, in milliseconds.
    pub const PAUSE_MS: std::ops::RangeInclusive<u64> = 0..=60_000;

    /// Boarding of `boarding_ms` (1 000 to 60 000) and a pause of `pause_ms` (0 to
    /// 60 000) milliseconds.
    pub fn new(boarding_ms: u64, pause_ms: u64) -> Result<Self, FlightTimingError> {
        if !Self::BOARDING_MS.contains(&boarding_ms) {
            return Err(FlightTimingError::BoardingOutOfRange(boarding_ms));
        }
        if !Self::PAUSE_MS.contains(&pause_ms) {
            return Err(FlightTimingError::PauseOutOfRange(pause_ms));
        }
        Ok(Self { boarding_ms, pause_ms })
    }

    /// How long tickets can be bought before take-off.
    pub const fn boarding(&self) -> Duration {
        Duration::milliseconds(self.boarding_ms.cast_signed())
    }

    /// How long after a crash the next flight starts boarding.
    pub const fn pause(&self) -> Duration {
        Duration::milliseconds(self.pause_ms.cast_signed())
    }

    /// The boarding length in milliseconds.
    pub const fn boarding_ms(&self) -> u64 {
        self.boarding_ms
    }

    /// The pause length in milliseconds.
    pub const fn pause_ms(&self) -> u64 {
        self.pause_ms
    }
}

impl Default for FlightTiming {
    /// Five seconds of boarding, three of pause.
    fn default() -> Self {
        Self {
            boarding_ms: 5_000,
            pause_ms: 3_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_to_five_seconds_boarding_three_pause() {
        let timing = FlightTiming::default();
        assert_eq!(
            (timing.boarding(), timing.pause()),
            (Duration::seconds(5), Duration::seconds(3))
        );
        assert_eq!(FlightTiming::new(5_000, 3_000), Ok(timing));
    }

    #[test]
    fn bounds_are_inclusive() {
        assert!(FlightTiming::new(1_000, 0).is_ok());
        assert!(FlightTiming::new(60_000, 60_000).is_ok());
        assert_eq!(
            FlightTiming::new(999, 0),
            Err(FlightTimingError::BoardingOutOfRange(999))
        );
        assert_eq!(
            FlightTiming::new(60_001, 0),
            Err(FlightTimingError::BoardingOutOfRange(60_001))
        );
        assert_eq!(
            FlightTiming::new(u64::MAX, 0),
            Err(FlightTimingError::BoardingOutOfRange(u64::MAX))
        );
        assert_eq!(
            FlightTiming::new(5_000, 60_001),
            Err(FlightTimingError::PauseOutOfRange(60_001))
        );
        assert_eq!(
            FlightTiming::new(1_234, 567).map(|t| (t.boarding_ms(), t.pause_ms())),
            Ok((1_234, 567))
        );
    }
}
