//! What a verifier checks of a v5 statement against its ticket lines read back
//! (`lines_csv.rs`): the lines recompute to the signed `merkleRoot` and `leafCount`, and
//! the signed totals (`ticketCount`, the per-currency `stakes`, `payouts`, `refunds`,
//! `ggr`, `share`, `amountDue` and `direction`) are what the lines sum to, written as
//! finalization writes them (`StatementMoney::of`, whose amount due is `opinion-flight`'s
//! `ReportTotals::amount_due`): the rules are reused, never restated.

use opinion_flight::ReportTotals;
use serde_json::{Value, json};

use crate::statement::{ProofSummary, StatementMoney};

/// The lines do not recompute to the tree the statement signs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the lines recompute to root {computed_root} of {computed_count} leaves; the statement signs {named_root} of {named_count}"
)]
pub struct TreeMismatch {
    /// The statement's `merkleRoot`, as written.
    pub named_root: String,
    /// The statement's `leafCount`, as written.
    pub named_count: String,
    /// The root of the lines.
    pub computed_root: String,
    /// How many lines.
    pub computed_count: u64,
}

/// A signed total that is not what the lines sum to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} is {named} in the statement; the lines give {computed}")]
pub struct TotalsMismatch {
    /// The document's field.
    pub field: &'static str,
    /// What the document says (JSON).
    pub named: String,
    /// What the lines give (JSON).
    pub computed: String,
}

/// Checks that `document` signs the tree `tree` (`merkleRoot`, `leafCount`).
pub fn check_tree(document: &Value, tree: &ProofSummary) -> Result<(), TreeMismatch> {
    let named_root = document.get("merkleRoot").unwrap_or(&Value::Null);
    let named_count = document.get("leafCount").unwrap_or(&Value::Null);
    if named_root.as_str() == Some(tree.merkle_root.to_hex().as_str()) && named_count.as_u64() == Some(tree.leaf_count)
    {
        return Ok(());
    }
    Err(TreeMismatch {
        named_root: named_root.to_string(),
        named_count: named_count.to_string(),
        computed_root: tree.merkle_root.to_hex(),
        computed_count: tree.leaf_count,
    })
}

/// Checks that the totals `document` signs are those of lines summing to `totals`.
pub fn check_totals(document: &Value, totals: &ReportTotals) -> Result<(), TotalsMismatch> {
    let money = StatementMoney::of(totals);
    let expected = [
        ("ticketCount", json!(totals.ticket_count)),
        ("stakes", json!(money.stakes)),
        ("payouts", json!(money.payouts)),
        ("refunds", json!(money.refunds)),
        ("ggr", json!(money.ggr)),
        ("share", json!(money.share)),
        ("amountDue", json!(money.amount_due)),
        ("direction", json!(money.direction.as_str())),
    ];
    for (field, computed) in expected {
        let named = document.get(field).unwrap_or(&Value::Null);
        if *named != computed {
            return Err(TotalsMismatch {
                field,
                named: named.to_string(),
                computed: computed.to_string(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use opinion_flight::{ReportLine, Rupiah, ShareBps};
    use serde_json::Map;

    use super::*;
    use crate::statement::write_proof_fields;
    use crate::tree_hash::leaf_hash;

    fn totals(payout: i64) -> ReportTotals {
        ReportTotals::of(&[ReportLine {
            stake: Rupiah::new(10_000).expect("rupiah"),
            payout: Rupiah::new(payout).expect("rupiah"),
            refund: Rupiah::ZERO,
            share_bps: ShareBps::new(1_500).expect("bps"),
        }])
    }

    fn signed(tree: &ProofSummary, totals: &ReportTotals) -> Value {
        let mut fields = Map::new();
        fields.insert("ticketCount".into(), json!(totals.ticket_count));
        write_proof_fields(&mut fields, tree, &StatementMoney::of(totals), None);
        Value::Object(fields)
    }

    #[test]
    fn a_statement_verifies_against_its_own_tree_and_totals_only() {
        let tree = ProofSummary {
            merkle_root: leaf_hash(b"line"),
            leaf_count: 1,
        };
        let document = signed(&tree, &totals(0));
        assert_eq!(check_tree(&document, &tree), Ok(()));
        assert_eq!(check_totals(&document, &totals(0)), Ok(()));

        let other = ProofSummary {
            merkle_root: leaf_hash(b"other"),
            ..tree
        };
        assert!(check_tree(&document, &other).is_err());
        let bigger = ProofSummary { leaf_count: 2, ..tree };
        assert!(check_tree(&document, &bigger).is_err());
        let mismatch = check_totals(&document, &totals(34_600)).expect_err("other totals");
        assert_eq!(mismatch.field, "payouts");

        let mut wrong_direction = document.clone();
        wrong_direction["direction"] = json!("platform_to_operator");
        assert_eq!(
            check_totals(&wrong_direction, &totals(0)).map_err(|m| m.field),
            Err("direction")
        );
        let mut plain_amount = document;
        plain_amount["amountDue"] = json!("1500");
        assert_eq!(
            check_totals(&plain_amount, &totals(0)).map_err(|m| m.field),
            Err("amountDue")
        );
    }
}
