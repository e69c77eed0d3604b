//! The phases of a flight: boarding (tickets are bought), in flight (the multiplier
//! climbs, tickets are cashed out), then crashed, or cancelled when a restart found it
//! still boarding.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// Where a flight is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub enum FlightPhase {
    /// Tickets are being bought.
    Boarding,
    /// Took off; the multiplier climbs until the crash instant.
    InFlight,
    /// Crashed: its seed and crash point are revealed.
    Crashed,
    /// Cancelled before take-off; every ticket is refunded.
    Cancelled,
}

/// Text that names no flight phase.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a flight phase")]
pub struct UnknownFlightPhase(pub String);

impl FlightPhase {
    /// Every phase, in order.
    pub const ALL: [Self; 4] = [Self::Boarding, Self::InFlight, Self::Crashed, Self::Cancelled];

    /// The wire and storage name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Boarding => "boarding",
            Self::InFlight => "in_flight",
            Self::Crashed => "crashed",
            Self::Cancelled => "cancelled",
        }
    }

    /// Whether the flight is over (crashed or cancelled).
    pub const fn is_over(self) -> bool {
        matches!(self, Self::Crashed | Self::Cancelled)
    }
}

impl fmt::Display for FlightPhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FlightPhase {
    type Err = UnknownFlightPhase;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|phase| phase.as_str() == text)
            .ok_or_else(|| UnknownFlightPhase(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        let names: Vec<_> = FlightPhase::ALL.into_iter().map(FlightPhase::as_str).collect();
        assert_eq!(names, ["boarding", "in_flight", "crashed", "cancelled"]);
        for phase in FlightPhase::ALL {
            assert_eq!(phase.as_str().parse(), Ok(phase));
            assert_eq!(serde_json::to_string(&phase).ok(), Some(format!("\"{phase}\"")));
        }
        assert!("InFlight".parse::<FlightPhase>().is_err());
    }

    #[test]
    fn over_once_crashed_or_cancelled() {
        let over: Vec<_> = FlightPhase::ALL.into_iter().filter(|phase| phase.is_over()).collect();
        assert_eq!(over, [FlightPhase::Crashed, FlightPhase::Cancelled]);
    }
}
