//! What a v5 statement correction carries of the proof. A correction changes what is owed,
//! never which tickets were played, so its tree is the amended statement's: it names that
//! statement's `merkleRoot` and `leafCount` (with `"proofVersion": 5`), and a ticket's
//! inclusion proof against the statement holds for the correction too. Its amounts are
//! money with their currency, like the statement's.

use opinion_flight::{PaymentDirection, SettlementBalance};
use serde_json::{Map, Value, json};

use crate::money::Money;
use crate::statement::ProofSummary;
use crate::version::{PROOF_VERSION, PROOF_VERSION_FIELD};

/// A correction's amounts, in IDR like everything a statement settles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorrectionMoney {
    /// The signed change of what the operator owes the platform.
    pub change: Money,
    /// What was due before it (after the earlier corrections).
    pub due_before: Money,
    /// Who owed that.
    pub direction_before: PaymentDirection,
    /// What is due after it.
    pub due: Money,
    /// Who owes that.
    pub direction: PaymentDirection,
}

impl CorrectionMoney {
    /// The money of a correction by `change` rupiah of a report whose balance is `before`;
    /// payments are left out (they are not part of any signed document).
    pub fn of(before: &SettlementBalance, change: i64) -> Self {
        let (due_before, direction_before) = before.corrected_due();
        let (due, direction) = before.corrected(change).corrected_due();
        Self {
            change: Money::idr(change),
            due_before: Money::idr(due_before.get()),
            direction_before,
            due: Money::idr(due.get()),
            direction,
        }
    }
}

/// Writes a correction's proof fields into its document: `proofVersion`, the amended
/// statement's `merkleRoot` and `leafCount`, `amountChange`, `amountDueBefore`,
/// `directionBefore`, `amountDue` and `direction`.
pub fn write_correction_proof_fields(fields: &mut Map<String, Value>, amended: &ProofSummary, money: &CorrectionMoney) {
    fields.insert(PROOF_VERSION_FIELD.into(), json!(PROOF_VERSION));
    fields.insert("merkleRoot".into(), json!(amended.merkle_root));
    fields.insert("leafCount".into(), json!(amended.leaf_count));
    fields.insert("amountChange".into(), json!(money.change));
    fields.insert("amountDueBefore".into(), json!(money.due_before));
    fields.insert("directionBefore".into(), json!(money.direction_before.as_str()));
    fields.insert("amountDue".into(), json!(money.due));
    fields.insert("direction".into(), json!(money.direction.as_str()));
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::tree_hash::leaf_hash;

    fn balance(share: i64, corrections: i64) -> SettlementBalance {
        SettlementBalance {
            share,
            corrections,
            paid_to_platform: 0,
            paid_to_operator: 0,
        }
    }

    /// What is owed as one signed number: positive when the operator owes the platform.
    fn signed(money: Money, direction: PaymentDirection) -> i128 {
        match direction {
            PaymentDirection::PlatformToOperator => -money.amount(),
            _ => money.amount(),
        }
    }

    #[test]
    fn a_correction_names_the_amended_tree_and_money_with_its_currency() {
        let amended = ProofSummary {
            merkle_root: leaf_hash(b"line"),
            leaf_count: 3,
        };
        let mut fields = Map::new();
        write_correction_proof_fields(&mut fields, &amended, &CorrectionMoney::of(&balance(1_000, 0), -1_500));
        assert_eq!(
            Value::Object(fields),
            json!({
                "proofVersion": 5,
                "merkleRoot": amended.merkle_root.to_hex(),
                "leafCount": 3,
                "amountChange": {"amount": "-1500", "currency": "IDR"},
                "amountDueBefore": {"amount": "1000", "currency": "IDR"},
                "directionBefore": "operator_to_platform",
                "amountDue": {"amount": "500", "currency": "IDR"},
                "direction": "platform_to_operator",
            })
        );
    }

    proptest! {
        #[test]
        fn what_is_due_after_is_what_was_due_moved_by_the_change(
            share in -1_000_000_000i64..1_000_000_000,
            earlier in -1_000_000_000i64..1_000_000_000,
            change in -1_000_000_000i64..1_000_000_000,
        ) {
            let money = CorrectionMoney::of(&balance(share, earlier), change);
            prop_assert_eq!(
                signed(money.due, money.direction),
                signed(money.due_before, money.direction_before) + i128::from(change)
            );
            prop_assert!(money.due.amount() >= 0 && money.due_before.amount() >= 0);
        }
    }
}
