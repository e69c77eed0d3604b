//! What a verifier checks of a v5 statement correction: its arithmetic holds on its own
//! (`amountDue` with `direction` is `amountDueBefore` with `directionBefore` moved by the
//! signed `amountChange`, positive when the operator owes the platform more: the rule of
//! `opinion-flight`'s `SettlementBalance::corrected_due`), and, given the statement it
//! amends, it names that statement (`statementHash`, `statementSequence`, `reportId`,
//! `operatorId`) and its tree (`merkleRoot`, `leafCount`: a correction changes money,
//! never tickets).

use opinion_flight::{PaymentDirection, SettlementBalance, payment_direction};
use opinion_statement::document_hash;
use serde_json::Value;

use crate::money::Money;

/// The type of a settlement statement's document.
pub const STATEMENT_TYPE: &str = "flight_settlement_statement";

/// The type of a statement correction's document.
pub const CORRECTION_TYPE: &str = "flight_statement_correction";

/// A correction whose amounts do not add up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArithmeticError {
    /// A field is missing or not what it must be.
    #[error("{field} {what}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        what: String,
    },
    /// The amount due after the change is not the one before moved by the change.
    #[error(
        "amountDue {named} {named_direction} is not amountDueBefore moved by amountChange: {computed} {computed_direction}"
    )]
    DoesNotFollow {
        /// The document's `amountDue`.
        named: i64,
        /// The document's `direction`.
        named_direction: &'static str,
        /// What follows from the amount before and the change.
        computed: i64,
        /// Who owes that.
        computed_direction: &'static str,
    },
}

/// A correction that does not name the statement given as the one it amends.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmendsError {
    /// The amended document is not a settlement statement.
    #[error("the amended document is not a {STATEMENT_TYPE}")]
    NotAStatement,
    /// A field names something else than the statement.
    #[error("{field} is {named} in the correction; the amended statement gives {amended}")]
    Field {
        /// The correction's field.
        field: &'static str,
        /// What the correction names (JSON).
        named: String,
        /// What the statement gives (JSON).
        amended: String,
    },
}

/// Checks that a correction's amount due follows from the amount before and the change.
pub fn check_correction_arithmetic(document: &Value) -> Result<(), ArithmeticError> {
    let currency = document.get("currency").and_then(Value::as_str).unwrap_or_default();
    let change = amount(document, "amountChange", currency)?;
    let before = owed(
        amount(document, "amountDueBefore", currency)?,
        direction(document, "directionBefore")?,
        "amountDueBefore",
    )?;
    let named = amount(document, "amountDue", currency)?;
    let named_direction = direction(document, "direction")?;
    owed(named, named_direction, "amountDue")?;
    let corrected = SettlementBalance {
        share: before,
        ..SettlementBalance::default()
    }
    .corrected(change);
    let (computed, computed_direction) = corrected.corrected_due();
    if (computed.get(), computed_direction) == (named, named_direction) {
        return Ok(());
    }
    Err(ArithmeticError::DoesNotFollow {
        named,
        named_direction: named_direction.as_str(),
        computed: computed.get(),
        computed_direction: computed_direction.as_str(),
    })
}

/// Checks that `correction` names `statement` (a signed statement's document) and its tree.
pub fn check_amends(correction: &Value, statement: &Value) -> Result<(), AmendsError> {
    if statement.get("type").and_then(Value::as_str) != Some(STATEMENT_TYPE) {
        return Err(AmendsError::NotAStatement);
    }
    let hash = document_hash(statement).map_err(|_| AmendsError::NotAStatement)?;
    let expected = [
        ("statementHash", Value::String(hash.to_string())),
        (
            "statementSequence",
            statement.get("sequence").cloned().unwrap_or_default(),
        ),
        ("reportId", statement.get("reportId").cloned().unwrap_or_default()),
        ("operatorId", statement.get("operatorId").cloned().unwrap_or_default()),
        ("merkleRoot", statement.get("merkleRoot").cloned().unwrap_or_default()),
        ("leafCount", statement.get("leafCount").cloned().unwrap_or_default()),
    ];
    for (field, amended) in expected {
        let named = correction.get(field).unwrap_or(&Value::Null);
        if *named != amended || amended.is_null() {
            return Err(AmendsError::Field {
                field,
                named: named.to_string(),
                amended: amended.to_string(),
            });
        }
    }
    Ok(())
}

/// The whole-unit amount of money field `field`, in the document's `currency`.
fn amount(document: &Value, field: &'static str, currency: &str) -> Result<i64, ArithmeticError> {
    let fail = |what: String| ArithmeticError::Field { field, what };
    let value = document.get(field).ok_or_else(|| fail("is missing".into()))?;
    let money: Money = serde_json::from_value(value.clone()).map_err(|_| {
        fail(format!(
            "{value} is not money ({{\"amount\": \"<integer>\", \"currency\"}})"
        ))
    })?;
    if money.currency().as_str() != currency {
        return Err(fail(format!(
            "is in {}, not the document's currency {currency}",
            money.currency()
        )));
    }
    i64::try_from(money.amount()).map_err(|_| fail("is out of range".into()))
}

/// Direction field `field`.
fn direction(document: &Value, field: &'static str) -> Result<PaymentDirection, ArithmeticError> {
    let text = document.get(field).and_then(Value::as_str).unwrap_or_default();
    match text {
        "none" => Ok(PaymentDirection::None),
        _ => payment_direction(text).ok_or_else(|| ArithmeticError::Field {
            field,
            what: format!("`{text}` is not operator_to_platform, platform_to_operator or none"),
        }),
    }
}

/// An amount due and who pays it as one signed number (positive: the operator owes the
/// platform); a negative amount, or a direction that does not fit the amount, is refused.
fn owed(amount: i64, direction: PaymentDirection, field: &'static str) -> Result<i64, ArithmeticError> {
    let fail = |what: &str| ArithmeticError::Field {
        field,
        what: what.to_owned(),
    };
    match (amount.signum(), direction) {
        (0, PaymentDirection::None) => Ok(0),
        (1, PaymentDirection::OperatorToPlatform) => Ok(amount),
        (1, PaymentDirection::PlatformToOperator) => Ok(-amount),
        (-1, _) => Err(fail(
            "is negative: an amount due is a size, its direction says who pays",
        )),
        (0, _) => Err(fail("is 0 with a direction: nothing owed goes nowhere")),
        _ => Err(fail("is more than 0 with direction none")),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn idr(amount: i64) -> Value {
        json!({"amount": amount.to_string(), "currency": "IDR"})
    }

    fn correction(before: i64, direction_before: &str, change: i64, due: i64, direction: &str) -> Value {
        json!({
            "type": CORRECTION_TYPE, "currency": "IDR",
            "amountChange": idr(change), "amountDueBefore": idr(before), "directionBefore": direction_before,
            "amountDue": idr(due), "direction": direction,
        })
    }

    #[test]
    fn the_amount_due_is_the_one_before_moved_by_the_change() {
        let ok = [
            (4_500, "operator_to_platform", -1_500, 3_000, "operator_to_platform"),
            (1_000, "operator_to_platform", -1_500, 500, "platform_to_operator"),
            (2_190, "platform_to_operator", 5_000, 2_810, "operator_to_platform"),
            (0, "none", 250, 250, "operator_to_platform"),
            (250, "platform_to_operator", 250, 0, "none"),
        ];
        for (before, db, change, due, d) in ok {
            assert_eq!(
                check_correction_arithmetic(&correction(before, db, change, due, d)),
                Ok(()),
                "{before} {db} {change}"
            );
        }
        let refused = check_correction_arithmetic(&correction(
            4_500,
            "operator_to_platform",
            -1_500,
            3_500,
            "operator_to_platform",
        ));
        assert!(
            matches!(refused, Err(ArithmeticError::DoesNotFollow { computed: 3_000, .. })),
            "{refused:?}"
        );
        let turned = check_correction_arithmetic(&correction(
            1_000,
            "operator_to_platform",
            -1_500,
            500,
            "operator_to_platform",
        ));
        assert!(matches!(turned, Err(ArithmeticError::DoesNotFollow { .. })));
        let nowhere = check_correction_arithmetic(&correction(0, "operator_to_platform", 1, 1, "operator_to_platform"));
        assert!(matches!(
            nowhere,
            Err(ArithmeticError::Field {
                field: "amountDueBefore",
                ..
            })
        ));
        let mut plain = correction(4_500, "operator_to_platform", -1_500, 3_000, "operator_to_platform");
        plain["amountChange"] = json!("-1500");
        assert!(matches!(
            check_correction_arithmetic(&plain),
            Err(ArithmeticError::Field {
                field: "amountChange",
                ..
            })
        ));
        let mut usd = correction(4_500, "operator_to_platform", -1_500, 3_000, "operator_to_platform");
        usd["amountDue"]["currency"] = json!("USD");
        assert!(matches!(
            check_correction_arithmetic(&usd),
            Err(ArithmeticError::Field { field: "amountDue", .. })
        ));
    }

    #[test]
    fn a_correction_names_the_statement_it_amends_and_its_tree() {
        let statement = json!({
            "type": STATEMENT_TYPE, "operatorId": "op_1", "reportId": "fsr_1", "sequence": 4,
            "merkleRoot": "ab".repeat(32), "leafCount": 3,
        });
        let hash = document_hash(&statement).expect("hash").to_string();
        let amending = json!({
            "type": CORRECTION_TYPE, "operatorId": "op_1", "reportId": "fsr_1", "statementHash": hash,
            "statementSequence": 4, "merkleRoot": "ab".repeat(32), "leafCount": 3,
        });
        assert_eq!(check_amends(&amending, &statement), Ok(()));
        for (field, value) in [
            ("statementHash", json!("00".repeat(32))),
            ("statementSequence", json!(3)),
            ("merkleRoot", json!("cd".repeat(32))),
            ("leafCount", json!(4)),
            ("reportId", json!("fsr_2")),
        ] {
            let mut other = amending.clone();
            other[field] = value;
            assert!(
                matches!(check_amends(&other, &statement), Err(AmendsError::Field { field: f, .. }) if f == field),
                "{field}"
            );
        }
        assert_eq!(check_amends(&amending, &amending), Err(AmendsError::NotAStatement));
    }

    proptest! {
        #[test]
        fn exactly_the_moved_amount_follows(
            before in -1_000_000_000i64..1_000_000_000,
            change in -1_000_000_000i64..1_000_000_000,
            off in -3i64..3,
        ) {
            let side = |signed: i64| match signed.signum() {
                1 => "operator_to_platform",
                -1 => "platform_to_operator",
                _ => "none",
            };
            let after = before + change + off;
            let document = correction(before.abs(), side(before), change, after.abs(), side(after));
            prop_assert_eq!(check_correction_arithmetic(&document).is_ok(), off == 0);
        }
    }
}
