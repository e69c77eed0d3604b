//! An operator's commercial terms for flight: the platform's share of its gross gaming
//! revenue, the ticket limits, how settlement periods are cut and how many days a
//! finalized report's amount is due after its period ends.

use crate::period::SettlementPeriod;
use crate::share_bps::ShareBps;
use crate::ticket_rules::TicketLimits;

/// One version's terms, all validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    share_bps: ShareBps,
    limits: TicketLimits,
    period: SettlementPeriod,
    payment_due_days: u16,
}

/// Terms that cannot be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TermsError {
    /// Payment due days outside 1 to 90.
    #[error("payment is due 1 to 90 days after a period ends, got {0}")]
    PaymentDueDaysOutOfRange(u16),
}

impl TermsError {
    /// A stable snake_case code for the broken rule.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::PaymentDueDaysOutOfRange(_) => "payment_due_days_out_of_range",
        }
    }
}

impl Terms {
    /// The fewest and most days a payment may be due after its period ends.
    pub const PAYMENT_DUE_DAYS: std::ops::RangeInclusive<u16> = 1..=90;

    /// Terms with a payment due 1 to 90 days after each period ends.
    pub fn new(
        share_bps: ShareBps,
        limits: TicketLimits,
        period: SettlementPeriod,
        payment_due_days: u16,
    ) -> Result<Self, TermsError> {
        if !Self::PAYMENT_DUE_DAYS.contains(&payment_due_days) {
            return Err(TermsError::PaymentDueDaysOutOfRange(payment_due_days));
        }
        Ok(Self {
            share_bps,
            limits,
            period,
            payment_due_days,
        })
    }

    /// The platform's share of the operator's GGR; each ticket freezes the one in force
    /// when it is bought.
    pub const fn share_bps(&self) -> ShareBps {
        self.share_bps
    }

    /// Stakes, payout cap and tickets per flight.
    pub const fn limits(&self) -> &TicketLimits {
        &self.limits
    }

    /// How settlement periods are cut.
    pub const fn period(&self) -> SettlementPeriod {
        self.period
    }

    /// Days after a period ends that its amount is due.
    pub const fn payment_due_days(&self) -> u16 {
        self.payment_due_days
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rupiah::Rupiah;

    fn limits() -> TicketLimits {
        let idr = |rupiah| Rupiah::new(rupiah).unwrap_or_else(|e| panic!("{e}"));
        TicketLimits::new(idr(1_000), idr(1_000_000), idr(50_000_000), 2).unwrap_or_else(|e| panic!("{e}"))
    }

    fn share() -> ShareBps {
        ShareBps::new(1_500).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn payment_is_due_one_to_ninety_days_after() {
        for days in [1, 30, 90] {
            let terms = Terms::new(share(), limits(), SettlementPeriod::CalendarMonth, days);
            assert_eq!(terms.map(|t| t.payment_due_days()), Ok(days));
        }
        for days in [0, 91] {
            let refused = Terms::new(share(), limits(), SettlementPeriod::CalendarMonth, days);
            assert_eq!(refused, Err(TermsError::PaymentDueDaysOutOfRange(days)));
            assert_eq!(refused.map_err(|e| e.code()), Err("payment_due_days_out_of_range"));
        }
    }

    #[test]
    fn keeps_what_it_was_given() {
        let terms =
            Terms::new(share(), limits(), SettlementPeriod::CalendarMonth, 14).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (terms.share_bps(), *terms.limits(), terms.period()),
            (share(), limits(), SettlementPeriod::CalendarMonth)
        );
    }
}
