//! What an instance taking over the flight clock does with the flight it finds (the
//! previous driver died). A flight still boarding is cancelled and every ticket refunded:
//! its players may have seen boarding close at different instants, and no ticket of it
//! has flown. A flight in flight is resumed exactly: its crash instant follows from its
//! recorded take-off (see [`crate::FlightPlan::resumed`]), so it crashes when it always
//! would have, even if that instant has already passed.

use crate::phase::FlightPhase;

/// What the new driver does with the flight it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// Keep flying it to its crash instant from its recorded take-off.
    Resume,
    /// Cancel it and refund every ticket.
    Cancel,
    /// It is over (crashed or cancelled); nothing to do but what its settlement owes.
    Nothing,
}

/// The recovery rule for a flight recorded in `recorded` phase.
pub const fn recover(recorded: FlightPhase) -> Recovery {
    match recorded {
        FlightPhase::Boarding => Recovery::Cancel,
        FlightPhase::InFlight => Recovery::Resume,
        FlightPhase::Crashed | FlightPhase::Cancelled => Recovery::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boarding_is_cancelled_in_flight_resumed_the_rest_left_alone() {
        assert_eq!(recover(FlightPhase::Boarding), Recovery::Cancel);
        assert_eq!(recover(FlightPhase::InFlight), Recovery::Resume);
        assert_eq!(recover(FlightPhase::Crashed), Recovery::Nothing);
        assert_eq!(recover(FlightPhase::Cancelled), Recovery::Nothing);
    }

    #[test]
    fn only_a_flight_that_is_not_over_needs_anything() {
        for phase in FlightPhase::ALL {
            assert_eq!(recover(phase) == Recovery::Nothing, phase.is_over(), "{phase}");
        }
    }
}
