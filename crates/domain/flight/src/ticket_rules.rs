//! What a player may buy: a stake between the terms' minimum and maximum, an optional
//! auto cash-out from 1.01× to 10 000.00×, and at most the terms' number of tickets on
//! one flight. Each refusal names the limit it broke, with a stable code.

use crate::multiplier::Multiplier;
use crate::rupiah::Rupiah;

/// The highest auto cash-out target, 10 000.00×. A flight reaches it about once in
/// 10 100 and only after some 153 seconds; a higher target is a lottery ticket that the
/// maximum payout would cap anyway.
pub const MAX_AUTO_CASH_OUT: Multiplier = Multiplier::from_hundredths(1_000_000);

/// The ticket limits of an operator's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketLimits {
    min_stake: Rupiah,
    max_stake: Rupiah,
    max_payout: Rupiah,
    tickets_per_flight: u8,
}

/// Limits that do not hold together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TicketLimitsError {
    /// A minimum stake of zero.
    #[error("the minimum stake is at least 1 rupiah")]
    MinStakeBelowOne,
    /// A maximum stake below the minimum.
    #[error("the maximum stake ({max}) is below the minimum stake ({min})")]
    MaxStakeBelowMin {
        /// The minimum stake.
        min: Rupiah,
        /// The maximum stake.
        max: Rupiah,
    },
    /// A maximum payout below the maximum stake.
    #[error("the maximum payout ({max_payout}) is below the maximum stake ({max_stake})")]
    MaxPayoutBelowMaxStake {
        /// The maximum stake.
        max_stake: Rupiah,
        /// The maximum payout.
        max_payout: Rupiah,
    },
    /// A number of tickets per flight outside 1 to 10.
    #[error("a player holds 1 to {max} tickets per flight, got {0}", max = TicketLimits::MAX_TICKETS_PER_FLIGHT)]
    TicketsPerFlightOutOfRange(u8),
}

impl TicketLimitsError {
    /// A stable snake_case code for the broken rule.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::MinStakeBelowOne => "min_stake_below_one",
            Self::MaxStakeBelowMin { .. } => "max_stake_below_min_stake",
            Self::MaxPayoutBelowMaxStake { .. } => "max_payout_below_max_stake",
            Self::TicketsPerFlightOutOfRange(_) => "tickets_per_flight_out_of_range",
        }
    }
}

impl TicketLimits {
    /// The most tickets a player may be allowed on one flight.
    pub const MAX_TICKETS_PER_FLIGHT: u8 = 10;
    /// The tickets per flight a player holds unless the terms say otherwise.
    pub const DEFAULT_TICKETS_PER_FLIGHT: u8 = 2;

    /// Limits with `1 ≤ min_stake ≤ max_stake ≤ max_payout` and 1 to 10 tickets per
    /// flight.
    pub const fn new(
        min_stake: Rupiah,
        max_stake: Rupiah,
        max_payout: Rupiah,
        tickets_per_flight: u8,
    ) -> Result<Self, TicketLimitsError> {
        if min_stake.get() < 1 {
            return Err(TicketLimitsError::MinStakeBelowOne);
        }
        if max_stake.get() < min_stake.get() {
            return Err(TicketLimitsError::MaxStakeBelowMin {
                min: min_stake,
                max: max_stake,
            });
        }
        if max_payout.get() < max_stake.get() {
            return Err(TicketLimitsError::MaxPayoutBelowMaxStake { max_stake, max_payout });
        }
        if tickets_per_flight < 1 || tickets_per_flight > Self::MAX_TICKETS_PER_FLIGHT {
            return Err(TicketLimitsError::TicketsPerFlightOutOfRange(tickets_per_flight));
        }
        Ok(Self {
            min_stake,
            max_stake,
            max_payout,
            tickets_per_flight,
        })
    }

    /// The smallest stake of a ticket.
    pub const fn min_stake(&self) -> Rupiah {
        self.min_stake
    }

    /// The largest stake of a ticket.
    pub const fn max_stake(&self) -> Rupiah {
        self.max_stake
    }

    /// The most one ticket pays, whatever its multiplier.
    pub const fn max_payout(&self) -> Rupiah {
        self.max_payout
    }

    /// How many tickets one player may hold on one flight.
    pub const fn tickets_per_flight(&self) -> u8 {
        self.tickets_per_flight
    }
}

/// Why a ticket is refused before any money moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TicketRefusal {
    /// The stake is below the minimum.
    #[error("the stake is below the minimum stake of {min} IDR")]
    StakeBelowMinimum {
        /// The minimum stake.
        min: Rupiah,
    },
    /// The stake is above the maximum.
    #[error("the stake is above the maximum stake of {max} IDR")]
    StakeAboveMaximum {
        /// The maximum stake.
        max: Rupiah,
    },
    /// The auto cash-out target is outside the allowed range.
    #[error("the auto cash-out is between {min}× and {max}×")]
    AutoCashOutOutOfRange {
        /// The lowest target.
        min: Multiplier,
        /// The highest target.
        max: Multiplier,
    },
    /// The player already holds the most tickets allowed on this flight.
    #[error("a player holds at most {cap} tickets on one flight")]
    TooManyTickets {
        /// The number of tickets allowed per flight.
        cap: u8,
    },
}

impl TicketRefusal {
    /// A stable snake_case code for the broken rule.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::StakeBelowMinimum { .. } => "stake_below_minimum",
            Self::StakeAboveMaximum { .. } => "stake_above_maximum",
            Self::AutoCashOutOutOfRange { .. } => "auto_cash_out_out_of_range",
            Self::TooManyTickets { .. } => "ticket_cap_reached",
        }
    }
}

/// Checks a ticket of `stake` with an optional `auto` cash-out target against the
/// limits, for a player already holding `tickets_already_held` tickets on the flight.
/// The first broken rule is reported, in the order stake, auto cash-out, ticket cap.
pub fn check_ticket(
    limits: &TicketLimits,
    stake: Rupiah,
    auto: Option<Multiplier>,
    tickets_already_held: u8,
) -> Result<(), TicketRefusal> {
    check_order(limits, stake, auto)?;
    if !may_hold_another(u64::from(tickets_already_held), limits.tickets_per_flight) {
        return Err(TicketRefusal::TooManyTickets {
            cap: limits.tickets_per_flight,
        });
    }
    Ok(())
}

/// The cap rule of [`check_ticket`]: whether a player already holding
/// `tickets_already_held` tickets on a flight may buy another under a cap of `cap`. The
/// store asks it with the count it makes under the player's lock.
pub fn may_hold_another(tickets_already_held: u64, cap: u8) -> bool {
    tickets_already_held < u64::from(cap)
}

/// The rules of [`check_ticket`] that the order alone decides (stake, then auto
/// cash-out): judged before anything is stored, while the cap is counted where the
/// ticket is stored, under the player's lock and after a repeated purchase is answered.
pub fn check_order(limits: &TicketLimits, stake: Rupiah, auto: Option<Multiplier>) -> Result<(), TicketRefusal> {
    if stake < limits.min_stake {
        return Err(TicketRefusal::StakeBelowMinimum { min: limits.min_stake });
    }
    if stake > limits.max_stake {
        return Err(TicketRefusal::StakeAboveMaximum { max: limits.max_stake });
    }
    if auto.is_some_and(|target| !(Multiplier::MIN_CASH_OUT..=MAX_AUTO_CASH_OUT).contains(&target)) {
        return Err(TicketRefusal::AutoCashOutOutOfRange {
            min: Multiplier::MIN_CASH_OUT,
            max: MAX_AUTO_CASH_OUT,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn idr(rupiah: i64) -> Rupiah {
        Rupiah::new(rupiah).unwrap_or_else(|e| panic!("{e}"))
    }

    fn limits() -> TicketLimits {
        TicketLimits::new(idr(1_000), idr(1_000_000), idr(100_000_000), 2).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn limits_hold_together() {
        assert_eq!(
            TicketLimits::new(idr(0), idr(10), idr(10), 1),
            Err(TicketLimitsError::MinStakeBelowOne)
        );
        assert_eq!(
            TicketLimits::new(idr(11), idr(10), idr(10), 1),
            Err(TicketLimitsError::MaxStakeBelowMin {
                min: idr(11),
                max: idr(10)
            })
        );
        assert_eq!(
            TicketLimits::new(idr(1), idr(10), idr(9), 1),
            Err(TicketLimitsError::MaxPayoutBelowMaxStake {
                max_stake: idr(10),
                max_payout: idr(9)
            })
        );
        for bad in [0, 11] {
            assert_eq!(
                TicketLimits::new(idr(1), idr(1), idr(1), bad),
                Err(TicketLimitsError::TicketsPerFlightOutOfRange(bad))
            );
        }
        for good in [1, 10] {
            assert!(TicketLimits::new(idr(1), idr(1), idr(1), good).is_ok());
        }
        let limits = limits();
        assert_eq!(
            (
                limits.min_stake(),
                limits.max_stake(),
                limits.max_payout(),
                limits.tickets_per_flight()
            ),
            (idr(1_000), idr(1_000_000), idr(100_000_000), 2)
        );
    }

    #[test]
    fn each_refusal_names_its_limit_and_code() {
        let limits = limits();
        let refused = |stake, auto, held| check_ticket(&limits, idr(stake), auto, held).unwrap_err();

        let low = refused(999, None, 0);
        assert_eq!(low, TicketRefusal::StakeBelowMinimum { min: idr(1_000) });
        assert_eq!(
            (low.code(), low.to_string().contains("1000")),
            ("stake_below_minimum", true)
        );

        let high = refused(1_000_001, None, 0);
        assert_eq!(high, TicketRefusal::StakeAboveMaximum { max: idr(1_000_000) });
        assert_eq!(
            (high.code(), high.to_string().contains("1000000")),
            ("stake_above_maximum", true)
        );

        for target in [100, 1_000_001] {
            let auto = refused(1_000, Some(Multiplier::from_hundredths(target)), 0);
            assert_eq!(auto.code(), "auto_cash_out_out_of_range");
            assert_eq!(auto.to_string(), "the auto cash-out is between 1.01× and 10000.00×");
        }

        let cap = refused(1_000, None, 2);
        assert_eq!(cap, TicketRefusal::TooManyTickets { cap: 2 });
        assert_eq!(
            (cap.code(), cap.to_string().contains('2')),
            ("ticket_cap_reached", true)
        );
    }

    #[test]
    fn another_ticket_is_allowed_below_the_cap_only_whatever_the_count() {
        assert!(may_hold_another(0, 1));
        assert!(may_hold_another(1, 2));
        assert!(!may_hold_another(2, 2));
        assert!(!may_hold_another(u64::from(u8::MAX) + 1, u8::MAX));
    }

    #[test]
    fn the_bounds_themselves_are_allowed() {
        let limits = limits();
        assert_eq!(
            check_ticket(&limits, idr(1_000), Some(Multiplier::MIN_CASH_OUT), 1),
            Ok(())
        );
        assert_eq!(
            check_ticket(&limits, idr(1_000_000), Some(MAX_AUTO_CASH_OUT), 0),
            Ok(())
        );
        assert_eq!(check_ticket(&limits, idr(5_000), None, 0), Ok(()));
    }

    #[test]
    fn limits_codes_are_distinct() {
        let errors = [
            TicketLimitsError::MinStakeBelowOne,
            TicketLimitsError::MaxStakeBelowMin {
                min: idr(2),
                max: idr(1),
            },
            TicketLimitsError::MaxPayoutBelowMaxStake {
                max_stake: idr(2),
                max_payout: idr(1),
            },
            TicketLimitsError::TicketsPerFlightOutOfRange(0),
        ];
        let mut codes: Vec<_> = errors.iter().map(TicketLimitsError::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
    }

    proptest! {
        #[test]
        fn accepted_iff_every_rule_holds(
            stake in 0i64..2_000_000, target in proptest::option::of(0u64..2_000_000), held in 0u8..5,
        ) {
            let auto = target.map(Multiplier::from_hundredths);
            let every_rule = (1_000..=1_000_000).contains(&stake)
                && target.is_none_or(|t| (101..=1_000_000).contains(&t))
                && held < 2;
            prop_assert_eq!(check_ticket(&limits(), idr(stake), auto, held).is_ok(), every_rule);
        }
    }
}
