//! A settlement report's arithmetic: each settled ticket is one line (its stake, payout
//! and refund, its GGR and the platform's share of it at the ticket's frozen BPS), and the
//! report's totals are the sums of its lines, so an operator recomputes every total from
//! the ticket export with additions only.
//!
//! The rounding rule: a line's share is `ggr × bps / 10 000` **truncated toward zero**
//! (so `-7.5` is `-7` and `7.5` is `7`): neither side is ever owed more than its exact
//! share of a ticket. The report's share is the sum of its lines' shares, never a
//! rounding of the summed GGR. A positive share is owed by the operator to the platform, a
//! negative one by the platform to the operator.

use crate::ggr::gross_gaming_revenue;
use crate::rupiah::Rupiah;
use crate::share_bps::ShareBps;

/// Basis points in one whole.
const BPS_PER_WHOLE: i128 = 10_000;

/// One settled ticket's money, as the report counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportLine {
    /// What the player staked.
    pub stake: Rupiah,
    /// What the ticket paid out (zero unless cashed out).
    pub payout: Rupiah,
    /// What was refunded (zero unless refunded).
    pub refund: Rupiah,
    /// The share frozen on the ticket when it was bought.
    pub share_bps: ShareBps,
}

impl ReportLine {
    /// The ticket's GGR, `stake − payout − refund` (negative when it won).
    pub fn ggr(&self) -> i64 {
        gross_gaming_revenue(self.stake, self.payout, self.refund)
    }

    /// The platform's share of the ticket's GGR, truncated toward zero.
    pub fn share(&self) -> i64 {
        share_of(self.ggr(), self.share_bps)
    }
}

/// `ggr × bps / 10 000`, truncated toward zero, exact for every `i64` GGR.
pub fn share_of(ggr: i64, bps: ShareBps) -> i64 {
    // |ggr × bps / 10 000| ≤ |ggr|, so the quotient always fits an i64.
    (i128::from(ggr) * i128::from(bps.get()) / BPS_PER_WHOLE) as i64
}

/// Who pays whom what a report settles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentDirection {
    /// The operator owes the platform its share.
    OperatorToPlatform,
    /// The platform owes the operator (its share of a losing period is negative).
    PlatformToOperator,
    /// Nothing is owed.
    None,
}

impl PaymentDirection {
    /// The wire and storage name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::OperatorToPlatform => "operator_to_platform",
            Self::PlatformToOperator => "platform_to_operator",
            Self::None => "none",
        }
    }
}

/// The sums of a report's lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReportTotals {
    /// How many tickets.
    pub ticket_count: u64,
    /// Their stakes.
    pub stakes: i64,
    /// Their payouts.
    pub payouts: i64,
    /// Their refunds.
    pub refunds: i64,
    /// Their GGR, `stakes − payouts − refunds`.
    pub ggr: i64,
    /// The sum of their shares (signed).
    pub share: i64,
}

impl ReportTotals {
    /// The totals of `lines`.
    pub fn of<'a>(lines: impl IntoIterator<Item = &'a ReportLine>) -> Self {
        lines
            .into_iter()
            .fold(Self::default(), |totals, line| totals.plus(line))
    }

    /// These totals with `line` added.
    #[must_use]
    pub fn plus(self, line: &ReportLine) -> Self {
        Self {
            ticket_count: self.ticket_count + 1,
            stakes: self.stakes.saturating_add(line.stake.get()),
            payouts: self.payouts.saturating_add(line.payout.get()),
            refunds: self.refunds.saturating_add(line.refund.get()),
            ggr: self.ggr.saturating_add(line.ggr()),
            share: self.share.saturating_add(line.share()),
        }
    }

    /// What the report settles: the share's size in whole rupiah and who pays it.
    pub fn amount_due(&self) -> (Rupiah, PaymentDirection) {
        let direction = match self.share.signum() {
            1 => PaymentDirection::OperatorToPlatform,
            -1 => PaymentDirection::PlatformToOperator,
            _ => PaymentDirection::None,
        };
        let amount = Rupiah::new(self.share.saturating_abs()).unwrap_or(Rupiah::ZERO);
        (amount, direction)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn idr(value: i64) -> Rupiah {
        Rupiah::new(value).expect("rupiah")
    }

    fn bps(value: u16) -> ShareBps {
        ShareBps::new(value).expect("bps")
    }

    fn line(stake: i64, payout: i64, refund: i64, share: u16) -> ReportLine {
        ReportLine {
            stake: idr(stake),
            payout: idr(payout),
            refund: idr(refund),
            share_bps: bps(share),
        }
    }

    #[test]
    fn a_lost_ticket_owes_the_share_of_its_stake_and_a_won_one_a_negative_share() {
        assert_eq!(line(10_000, 0, 0, 1_500).share(), 1_500);
        assert_eq!(line(10_000, 34_600, 0, 1_500).share(), -3_690);
        assert_eq!(
            line(10_000, 0, 10_000, 1_500).share(),
            0,
            "a refunded ticket is neutral"
        );
    }

    #[test]
    fn shares_truncate_toward_zero_on_both_sides() {
        assert_eq!(share_of(1_005, bps(1_500)), 150, "150.75");
        assert_eq!(share_of(-1_005, bps(1_500)), -150, "-150.75");
        assert_eq!(share_of(5, bps(1)), 0);
        assert_eq!(share_of(i64::MIN, bps(10_000)), i64::MIN);
        assert_eq!(share_of(i64::MAX, bps(10_000)), i64::MAX);
    }

    #[test]
    fn the_amount_due_says_who_pays() {
        let operator_pays = ReportTotals::of(&[line(10_000, 0, 0, 1_500), line(10_000, 12_000, 0, 1_000)]);
        assert_eq!(operator_pays.share, 1_500 - 200);
        assert_eq!(
            operator_pays.amount_due(),
            (idr(1_300), PaymentDirection::OperatorToPlatform)
        );
        let platform_pays = ReportTotals::of(&[line(10_000, 100_000, 0, 1_500)]);
        assert_eq!(
            platform_pays.amount_due(),
            (idr(13_500), PaymentDirection::PlatformToOperator)
        );
        assert_eq!(
            ReportTotals::default().amount_due(),
            (Rupiah::ZERO, PaymentDirection::None)
        );
    }

    fn any_line() -> impl Strategy<Value = ReportLine> {
        (1..10_000_000i64, 0..1_000_000_000i64, any::<bool>(), 0..=10_000u16).prop_map(
            |(stake, payout, refunded, share)| {
                if refunded {
                    line(stake, 0, stake, share)
                } else {
                    line(stake, payout, 0, share)
                }
            },
        )
    }

    proptest! {
        #[test]
        fn the_totals_are_the_sums_of_the_lines(lines in prop::collection::vec(any_line(), 0..200)) {
            let totals = ReportTotals::of(&lines);
            prop_assert_eq!(totals.ticket_count, lines.len() as u64);
            prop_assert_eq!(totals.stakes, lines.iter().map(|l| l.stake.get()).sum::<i64>());
            prop_assert_eq!(totals.payouts, lines.iter().map(|l| l.payout.get()).sum::<i64>());
            prop_assert_eq!(totals.refunds, lines.iter().map(|l| l.refund.get()).sum::<i64>());
            prop_assert_eq!(totals.ggr, totals.stakes - totals.payouts - totals.refunds);
            prop_assert_eq!(totals.share, lines.iter().map(ReportLine::share).sum::<i64>());
        }

        #[test]
        fn a_lines_share_is_never_more_than_its_exact_share(ggr in any::<i64>(), share in 0..=10_000u16) {
            let exact = i128::from(ggr) * i128::from(share);
            let truncated = i128::from(share_of(ggr, bps(share))) * 10_000;
            prop_assert!(truncated.abs() <= exact.abs());
            prop_assert!((exact - truncated).abs() < 10_000);
            prop_assert!(truncated == 0 || truncated.signum() == exact.signum());
        }

        #[test]
        fn the_order_of_the_lines_does_not_matter(mut lines in prop::collection::vec(any_line(), 0..50)) {
            let totals = ReportTotals::of(&lines);
            lines.reverse();
            prop_assert_eq!(ReportTotals::of(&lines), totals);
        }
    }
}
