//! What a finalized report still settles: its statement's share, changed by the signed
//! corrections issued since (each a signed change of what the operator owes the
//! platform), less the payments recorded against it. The balance is signed the way a
//! share is: positive while the operator owes the platform, negative while the platform
//! owes the operator. A payment is accepted only in the direction that is due and only up
//! to what remains, so payments can never overpay, whatever their order.

use crate::report::PaymentDirection;
use crate::rupiah::Rupiah;

/// The money a finalized report has settled so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SettlementBalance {
    /// The statement's share (signed).
    pub share: i64,
    /// The sum of its corrections' signed changes.
    pub corrections: i64,
    /// Paid by the operator to the platform.
    pub paid_to_platform: i64,
    /// Paid by the platform to the operator.
    pub paid_to_operator: i64,
}

/// Why a payment is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PaymentRefusal {
    /// Nothing remains due.
    #[error("nothing remains due on the report")]
    NothingDue,
    /// The payment goes the other way from what is due.
    #[error("the report's remaining {remaining} is due {due}, not the other way", due = due.as_str())]
    WrongDirection {
        /// Who owes.
        due: PaymentDirection,
        /// How much.
        remaining: Rupiah,
    },
    /// The payment is more than remains due.
    #[error("the payment is more than the {remaining} that remains due")]
    MoreThanDue {
        /// What remains due.
        remaining: Rupiah,
    },
    /// A payment moves money.
    #[error("a payment's amount is more than zero")]
    Zero,
}

impl SettlementBalance {
    /// What the operator still owes the platform, signed (negative: the platform owes).
    pub fn outstanding(&self) -> i64 {
        self.share
            .saturating_add(self.corrections)
            .saturating_sub(self.paid_to_platform)
            .saturating_add(self.paid_to_operator)
    }

    /// The amount due after corrections, before payments, and who pays it.
    pub fn corrected_due(&self) -> (Rupiah, PaymentDirection) {
        due(self.share.saturating_add(self.corrections))
    }

    /// What remains due and who pays it.
    pub fn remaining_due(&self) -> (Rupiah, PaymentDirection) {
        due(self.outstanding())
    }

    /// The balance after a correction changing what the operator owes by `change`.
    #[must_use]
    pub fn corrected(self, change: i64) -> Self {
        Self {
            corrections: self.corrections.saturating_add(change),
            ..self
        }
    }

    /// The balance after paying `amount` in `direction`, if that pays no more than remains
    /// due, in the direction it is due.
    pub fn paid(self, amount: Rupiah, direction: PaymentDirection) -> Result<Self, PaymentRefusal> {
        let (remaining, due) = self.remaining_due();
        if amount == Rupiah::ZERO {
            return Err(PaymentRefusal::Zero);
        }
        if due == PaymentDirection::None {
            return Err(PaymentRefusal::NothingDue);
        }
        if direction != due {
            return Err(PaymentRefusal::WrongDirection { due, remaining });
        }
        if amount > remaining {
            return Err(PaymentRefusal::MoreThanDue { remaining });
        }
        Ok(match direction {
            PaymentDirection::OperatorToPlatform => Self {
                paid_to_platform: self.paid_to_platform.saturating_add(amount.get()),
                ..self
            },
            PaymentDirection::PlatformToOperator | PaymentDirection::None => Self {
                paid_to_operator: self.paid_to_operator.saturating_add(amount.get()),
                ..self
            },
        })
    }
}

/// The direction of a payment as staff write it: `operator_to_platform` or
/// `platform_to_operator` (`none` moves no money, so no payment goes that way).
pub fn payment_direction(text: &str) -> Option<PaymentDirection> {
    match text {
        "operator_to_platform" => Some(PaymentDirection::OperatorToPlatform),
        "platform_to_operator" => Some(PaymentDirection::PlatformToOperator),
        _ => None,
    }
}

/// A signed amount as a size and who pays it.
fn due(signed: i64) -> (Rupiah, PaymentDirection) {
    let direction = match signed.signum() {
        1 => PaymentDirection::OperatorToPlatform,
        -1 => PaymentDirection::PlatformToOperator,
        _ => PaymentDirection::None,
    };
    (Rupiah::new(signed.saturating_abs()).unwrap_or(Rupiah::ZERO), direction)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn idr(value: i64) -> Rupiah {
        Rupiah::new(value).expect("rupiah")
    }

    const TO_PLATFORM: PaymentDirection = PaymentDirection::OperatorToPlatform;
    const TO_OPERATOR: PaymentDirection = PaymentDirection::PlatformToOperator;

    #[test]
    fn corrections_change_what_is_due_and_payments_reduce_it_until_nothing_remains() {
        let balance = SettlementBalance {
            share: 4_500,
            ..SettlementBalance::default()
        };
        let corrected = balance.corrected(-1_000);
        assert_eq!(corrected.corrected_due(), (idr(3_500), TO_PLATFORM));
        let partly = corrected.paid(idr(3_000), TO_PLATFORM).expect("partial");
        assert_eq!(partly.remaining_due(), (idr(500), TO_PLATFORM));
        assert_eq!(
            partly.paid(idr(501), TO_PLATFORM),
            Err(PaymentRefusal::MoreThanDue { remaining: idr(500) })
        );
        assert_eq!(
            partly.paid(idr(1), TO_OPERATOR),
            Err(PaymentRefusal::WrongDirection {
                due: TO_PLATFORM,
                remaining: idr(500)
            })
        );
        let settled = partly.paid(idr(500), TO_PLATFORM).expect("the rest");
        assert_eq!(settled.remaining_due(), (Rupiah::ZERO, PaymentDirection::None));
        assert_eq!(settled.paid(idr(1), TO_PLATFORM), Err(PaymentRefusal::NothingDue));
        assert_eq!(balance.paid(Rupiah::ZERO, TO_PLATFORM), Err(PaymentRefusal::Zero));
    }

    #[test]
    fn a_correction_can_turn_who_owes_whom() {
        let balance = SettlementBalance {
            share: 1_000,
            ..SettlementBalance::default()
        }
        .corrected(-3_000);
        assert_eq!(balance.remaining_due(), (idr(2_000), TO_OPERATOR));
        let paid = balance.paid(idr(2_000), TO_OPERATOR).expect("paid back");
        assert_eq!(paid.outstanding(), 0);
    }

    #[test]
    fn only_the_two_paying_directions_are_payment_directions() {
        assert_eq!(payment_direction("operator_to_platform"), Some(TO_PLATFORM));
        assert_eq!(payment_direction("platform_to_operator"), Some(TO_OPERATOR));
        assert_eq!(payment_direction("none"), None);
        assert_eq!(payment_direction("Operator_To_Platform"), None);
    }

    proptest! {
        #[test]
        fn accepted_payments_never_overpay_whatever_their_order(
            share in -1_000_000i64..1_000_000,
            change in -1_000_000i64..1_000_000,
            payments in prop::collection::vec((1i64..400_000, any::<bool>()), 0..20),
        ) {
            let corrected = SettlementBalance { share, ..SettlementBalance::default() }.corrected(change);
            let owed = corrected.outstanding();
            let mut balance = corrected;
            for (amount, to_platform) in payments {
                let direction = if to_platform { TO_PLATFORM } else { TO_OPERATOR };
                if let Ok(next) = balance.paid(idr(amount), direction) {
                    balance = next;
                }
                let left = balance.outstanding();
                prop_assert!(left == 0 || left.signum() == owed.signum(), "never past zero");
                prop_assert!(left.abs() <= owed.abs());
            }
            let (remaining, _) = balance.remaining_due();
            prop_assert_eq!(remaining.get(), balance.outstanding().abs());
        }

        #[test]
        fn what_remains_is_what_was_owed_less_what_was_accepted(
            share in -1_000_000i64..1_000_000,
            changes in prop::collection::vec(-500_000i64..500_000, 0..5),
            payments in prop::collection::vec(1i64..400_000, 0..20),
        ) {
            let corrected = changes
                .iter()
                .fold(SettlementBalance { share, ..SettlementBalance::default() }, |b, c| b.corrected(*c));
            let (owed, direction) = corrected.corrected_due();
            prop_assert_eq!(corrected.remaining_due(), (owed, direction));
            let mut balance = corrected;
            let mut accepted = 0i64;
            for amount in payments {
                if let Ok(next) = balance.paid(idr(amount), direction) {
                    balance = next;
                    accepted += amount;
                }
            }
            let (remaining, _) = balance.remaining_due();
            prop_assert_eq!(remaining.get(), owed.get() - accepted);
        }
    }
}
