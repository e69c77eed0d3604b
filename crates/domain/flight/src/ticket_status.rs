//! A ticket's life, driven by its debit, its flight and its refund:
//!
//! ```text
//! pending ──debit applied, boarding open──▶ active ──cashed out──▶ cashed_out
//!    │ ├─debit applied, boarding closed─┐     ├──crashed──▶ lost
//!    │ └─debit rejected──▶ rejected     ▼     └──flight cancelled──▶ refunding ──refund applied──▶ refunded
//!    └─debit ambiguous──▶ review ──resolved applied──▶ refunding
//!                            └──resolved not applied──▶ rejected
//! ```
//!
//! A ticket flies only if its debit is confirmed while boarding is open. A ticket in
//! review never flies, even when staff find the debit was applied: boarding closes
//! seconds after the ticket was bought, long before any review, so its money is refunded.
//! A flight's crash or cancellation concerns active tickets only; a pending ticket is
//! decided by its debit (applied once boarding has closed, it is refunded).

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// Where a ticket is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub enum TicketStatus {
    /// The debit was sent to the operator's wallet and is not confirmed yet.
    Pending,
    /// Paid for and flying.
    Active,
    /// Won: its payout credit is owed or paid.
    CashedOut,
    /// Not cashed out when its flight crashed.
    Lost,
    /// Its debit was taken but it did not fly: its refund credit is owed.
    Refunding,
    /// Its refund credit was applied.
    Refunded,
    /// Its debit's outcome is unknown: platform staff review it with the operator.
    Review,
    /// No money was taken: the wallet refused the debit, or staff found it never applied.
    Rejected,
}

/// What happens to a ticket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TicketEvent {
    /// The wallet confirmed the debit; `boarding_open` says whether the flight was still
    /// boarding when the confirmation was handled.
    DebitApplied {
        /// Whether the ticket's flight was still boarding.
        boarding_open: bool,
    },
    /// The wallet refused the debit.
    DebitRejected,
    /// The debit's outcome cannot be known (time-out, lost answer).
    DebitAmbiguous,
    /// The ticket was cashed out, by its player or its auto cash-out.
    CashedOut,
    /// Its flight crashed before it was cashed out.
    Crashed,
    /// Its flight was cancelled.
    FlightCancelled,
    /// The refund credit was applied by the wallet.
    RefundApplied,
    /// Staff found the ambiguous debit applied.
    ReviewResolvedApplied,
    /// Staff found the ambiguous debit not applied.
    ReviewResolvedNotApplied,
}

/// An event that cannot happen to a ticket in its status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a {from} ticket cannot take {event:?}")]
pub struct IllegalTicketTransition {
    /// The ticket's status.
    pub from: TicketStatus,
    /// The refused event.
    pub event: TicketEvent,
}

/// Text that names no ticket status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a ticket status")]
pub struct UnknownTicketStatus(pub String);

impl TicketStatus {
    /// Every status, in the order of a ticket's life.
    pub const ALL: [Self; 8] = [
        Self::Pending,
        Self::Active,
        Self::CashedOut,
        Self::Lost,
        Self::Refunding,
        Self::Refunded,
        Self::Review,
        Self::Rejected,
    ];

    /// The wire and storage name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Active => "active",
            Self::CashedOut => "cashed_out",
            Self::Lost => "lost",
            Self::Refunding => "refunding",
            Self::Refunded => "refunded",
            Self::Review => "review",
            Self::Rejected => "rejected",
        }
    }

    /// The status after `event`, or why it cannot happen.
    pub const fn transition(self, event: TicketEvent) -> Result<Self, IllegalTicketTransition> {
        use TicketEvent as E;
        let next = match (self, event) {
            (Self::Pending, E::DebitApplied { boarding_open: true }) => Self::Active,
            (Self::Pending, E::DebitApplied { boarding_open: false }) => Self::Refunding,
            (Self::Pending, E::DebitRejected) => Self::Rejected,
            (Self::Pending, E::DebitAmbiguous) => Self::Review,
            (Self::Active, E::CashedOut) => Self::CashedOut,
            (Self::Active, E::Crashed) => Self::Lost,
            (Self::Active, E::FlightCancelled) => Self::Refunding,
            (Self::Refunding, E::RefundApplied) => Self::Refunded,
            (Self::Review, E::ReviewResolvedApplied) => Self::Refunding,
            (Self::Review, E::ReviewResolvedNotApplied) => Self::Rejected,
            (from, event) => return Err(IllegalTicketTransition { from, event }),
        };
        Ok(next)
    }

    /// Whether the ticket's outcome is final: nothing more happens to its money besides a
    /// payout or refund credit already owed. Pending, active and review tickets are not
    /// settled; a settlement period with one of them cannot be finalized.
    pub const fn is_settled(self) -> bool {
        !matches!(self, Self::Pending | Self::Active | Self::Review)
    }

    /// Whether the ticket takes one of its player's places on its flight, under the cap
    /// of tickets per flight: every ticket but a rejected one, whose debit never applied.
    pub const fn holds_a_place(self) -> bool {
        !matches!(self, Self::Rejected)
    }

    /// Whether nothing can happen to the ticket any more (a settled ticket whose
    /// refund is still owed is not final yet).
    pub const fn is_final(self) -> bool {
        matches!(self, Self::CashedOut | Self::Lost | Self::Refunded | Self::Rejected)
    }
}

impl fmt::Display for TicketStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TicketStatus {
    type Err = UnknownTicketStatus;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| UnknownTicketStatus(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TicketEvent as E;
    use TicketStatus as S;

    const EVENTS: [TicketEvent; 10] = [
        E::DebitApplied { boarding_open: true },
        E::DebitApplied { boarding_open: false },
        E::DebitRejected,
        E::DebitAmbiguous,
        E::CashedOut,
        E::Crashed,
        E::FlightCancelled,
        E::RefundApplied,
        E::ReviewResolvedApplied,
        E::ReviewResolvedNotApplied,
    ];

    /// Every legal move; everything else is refused.
    const LEGAL: [(TicketStatus, TicketEvent, TicketStatus); 10] = [
        (S::Pending, E::DebitApplied { boarding_open: true }, S::Active),
        (S::Pending, E::DebitApplied { boarding_open: false }, S::Refunding),
        (S::Pending, E::DebitRejected, S::Rejected),
        (S::Pending, E::DebitAmbiguous, S::Review),
        (S::Active, E::CashedOut, S::CashedOut),
        (S::Active, E::Crashed, S::Lost),
        (S::Active, E::FlightCancelled, S::Refunding),
        (S::Refunding, E::RefundApplied, S::Refunded),
        (S::Review, E::ReviewResolvedApplied, S::Refunding),
        (S::Review, E::ReviewResolvedNotApplied, S::Rejected),
    ];

    #[test]
    fn the_whole_transition_table() {
        for from in S::ALL {
            for event in EVENTS {
                let expected = LEGAL
                    .iter()
                    .find(|(f, e, _)| *f == from && *e == event)
                    .map(|(_, _, to)| *to)
                    .ok_or(IllegalTicketTransition { from, event });
                assert_eq!(from.transition(event), expected, "{from} + {event:?}");
            }
        }
    }

    #[test]
    fn final_statuses_take_no_event_and_are_settled() {
        for from in S::ALL.into_iter().filter(|status| status.is_final()) {
            assert!(from.is_settled(), "{from}");
            assert!(
                EVENTS.into_iter().all(|event| from.transition(event).is_err()),
                "{from}"
            );
        }
    }

    #[test]
    fn every_ticket_but_a_rejected_one_holds_a_place_and_a_place_once_given_up_is_never_taken_again() {
        let free: Vec<_> = S::ALL.into_iter().filter(|status| !status.holds_a_place()).collect();
        assert_eq!(free, [S::Rejected]);
        for from in S::ALL.into_iter().filter(|status| !status.holds_a_place()) {
            for event in EVENTS {
                assert!(from.transition(event).is_err(), "{from} {event:?}");
            }
        }
    }

    #[test]
    fn settled_means_no_stake_or_review_outstanding() {
        let settled: Vec<_> = S::ALL.into_iter().filter(|status| status.is_settled()).collect();
        assert_eq!(settled, [S::CashedOut, S::Lost, S::Refunding, S::Refunded, S::Rejected]);
        // From a settled status, the only move left is a refund credit being applied.
        for from in settled {
            for event in EVENTS {
                if let Ok(to) = from.transition(event) {
                    assert_eq!((from, event, to), (S::Refunding, E::RefundApplied, S::Refunded));
                }
            }
        }
    }

    #[test]
    fn a_reviewed_ticket_never_flies() {
        for resolution in [E::ReviewResolvedApplied, E::ReviewResolvedNotApplied] {
            let after = S::Review.transition(resolution);
            assert!(matches!(after, Ok(S::Refunding | S::Rejected)));
        }
        for flight_event in [E::CashedOut, E::Crashed, E::FlightCancelled] {
            assert!(S::Review.transition(flight_event).is_err());
        }
    }

    #[test]
    fn names_on_the_wire_are_snake_case_and_read_back() {
        let names: Vec<_> = S::ALL.into_iter().map(S::as_str).collect();
        assert_eq!(
            names,
            [
                "pending",
                "active",
                "cashed_out",
                "lost",
                "refunding",
                "refunded",
                "review",
                "rejected"
            ]
        );
        for status in S::ALL {
            assert_eq!(status.as_str().parse(), Ok(status));
            assert_eq!(
                serde_json::to_string(&status).ok(),
                Some(format!("\"{}\"", status.as_str()))
            );
        }
        assert_eq!("CashedOut".parse::<S>(), Err(UnknownTicketStatus("CashedOut".into())));
    }
}
