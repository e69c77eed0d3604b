//! What the v5 proof adds to a signed statement, built while finalization walks the lines:
//! `proofVersion` (5), `merkleRoot` and `leafCount` of the lines' tree, the statement's
//! money per currency, and the comparison-only `exchangeEvidence`.
//!
//! Money and evidence are separate inputs on purpose: `StatementMoney::of` takes the
//! report's totals and nothing else, and the evidence is only ever copied into its own
//! field, so no amount owed, paid or corrected can be computed from a rate.

use opinion_flight::{PaymentDirection, ReportTotals};
use opinion_statement::CanonicalError;
use serde_json::{Map, Value, json};

use crate::exchange_evidence::ExchangeEvidence;
use crate::line::ProofLine;
use crate::money::{Money, MoneyTotals};
use crate::root_builder::RootBuilder;
use crate::tree_hash::TreeHash;
use crate::version::{PROOF_VERSION, PROOF_VERSION_FIELD};

/// The tree of a statement's lines, as the statement names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProofSummary {
    /// The root of the lines' tree.
    pub merkle_root: TreeHash,
    /// How many lines (leaves) it has.
    pub leaf_count: u64,
}

impl ProofSummary {
    /// The tree a signed statement names (`merkleRoot`, `leafCount`); `None` when it names
    /// no well-formed one.
    pub fn named_in(document: &Value) -> Option<Self> {
        let merkle_root = document.get("merkleRoot")?.as_str()?.parse().ok()?;
        let leaf_count = document.get("leafCount")?.as_u64()?;
        Some(Self {
            merkle_root,
            leaf_count,
        })
    }
}

/// A statement's money in mixed-money form, from its report's totals alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementMoney {
    /// Stakes, payouts, refunds, GGR and share, each one total per currency.
    pub stakes: MoneyTotals,
    /// See `stakes`.
    pub payouts: MoneyTotals,
    /// See `stakes`.
    pub refunds: MoneyTotals,
    /// See `stakes`.
    pub ggr: MoneyTotals,
    /// See `stakes` (signed).
    pub share: MoneyTotals,
    /// What the report settles, in IDR (a statement is owed and paid in IDR).
    pub amount_due: Money,
    /// Who pays it.
    pub direction: PaymentDirection,
}

impl StatementMoney {
    /// The money of a flight report: every line is IDR, so each total has one currency.
    pub fn of(totals: &ReportTotals) -> Self {
        let idr = |amount: i64| MoneyTotals::from(Money::idr(amount));
        let (amount_due, direction) = totals.amount_due();
        Self {
            stakes: idr(totals.stakes),
            payouts: idr(totals.payouts),
            refunds: idr(totals.refunds),
            ggr: idr(totals.ggr),
            share: idr(totals.share),
            amount_due: Money::idr(amount_due.get()),
            direction,
        }
    }
}

/// Builds a statement's proof while its lines are walked in ticket order, in memory
/// `O(log n)`, adding up the report's totals on the way.
#[derive(Debug, Clone, Default)]
pub struct StatementProofBuilder {
    tree: RootBuilder,
    totals: ReportTotals,
}

impl StatementProofBuilder {
    /// A statement of no lines yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next line and answers its leaf hash (what a store keeps to make the
    /// ticket's inclusion proof later).
    pub fn add(&mut self, line: &ProofLine) -> Result<TreeHash, CanonicalError> {
        let leaf = line.leaf_hash()?;
        self.tree.push_leaf_hash(leaf);
        self.totals = self.totals.plus(&line.money);
        Ok(leaf)
    }

    /// The tree and the totals of the lines added.
    pub fn finish(&self) -> (ProofSummary, ReportTotals) {
        let summary = ProofSummary {
            merkle_root: self.tree.root(),
            leaf_count: self.tree.leaf_count(),
        };
        (summary, self.totals)
    }
}

/// Writes the proof's fields into a statement's document: `proofVersion`, `merkleRoot`,
/// `leafCount`, the money (`stakes`, `payouts`, `refunds`, `ggr`, `share` as lists of money,
/// `amountDue` as money, `direction`) and `exchangeEvidence` (null when the operator has no
/// reporting currency).
pub fn write_proof_fields(
    fields: &mut Map<String, Value>,
    summary: &ProofSummary,
    money: &StatementMoney,
    evidence: Option<&ExchangeEvidence>,
) {
    fields.insert(PROOF_VERSION_FIELD.into(), json!(PROOF_VERSION));
    fields.insert("merkleRoot".into(), json!(summary.merkle_root));
    fields.insert("leafCount".into(), json!(summary.leaf_count));
    fields.insert("stakes".into(), json!(money.stakes));
    fields.insert("payouts".into(), json!(money.payouts));
    fields.insert("refunds".into(), json!(money.refunds));
    fields.insert("ggr".into(), json!(money.ggr));
    fields.insert("share".into(), json!(money.share));
    fields.insert("amountDue".into(), json!(money.amount_due));
    fields.insert("direction".into(), json!(money.direction.as_str()));
    fields.insert("exchangeEvidence".into(), json!(evidence));
}

#[cfg(test)]
mod tests {
    use opinion_core::{FlightId, TicketId};
    use opinion_flight::{ReportLine, Rupiah, ShareBps};
    use proptest::prelude::*;
    use time::macros::datetime;

    use super::*;
    use crate::inclusion::InclusionProof;
    use crate::line::LineOutcome;
    use crate::player_tag::PlayerKey;
    use crate::version::check_proof_version;

    fn line(n: u64, stake: i64, payout: i64, bps: u16) -> ProofLine {
        ProofLine {
            ticket_id: TicketId::from_u128(u128::from(n) + 1),
            flight_id: FlightId::from_u128(7),
            player_tag: PlayerKey::from_bytes([9; 32]).tag(&format!("player-{}", n % 5)),
            purchased_at: datetime!(2026-11-02 10:00 UTC) + time::Duration::seconds(n as i64),
            outcome: if payout > 0 {
                LineOutcome::CashedOut
            } else {
                LineOutcome::Lost
            },
            money: ReportLine {
                stake: Rupiah::new(stake).expect("rupiah"),
                payout: Rupiah::new(payout).expect("rupiah"),
                refund: Rupiah::ZERO,
                share_bps: ShareBps::new(bps).expect("bps"),
            },
        }
    }

    fn evidence(rate: &str) -> ExchangeEvidence {
        ExchangeEvidence::quoted(
            "indodax.com",
            "USDT/IDR".parse().expect("pair"),
            rate.parse().expect("rate"),
            datetime!(2026-12-01 00:05 UTC),
            rate.as_bytes(),
        )
    }

    fn document(lines: &[ProofLine], evidence: Option<&ExchangeEvidence>) -> Map<String, Value> {
        let mut builder = StatementProofBuilder::new();
        for line in lines {
            builder.add(line).expect("leaf");
        }
        let (summary, totals) = builder.finish();
        let mut fields = Map::new();
        write_proof_fields(&mut fields, &summary, &StatementMoney::of(&totals), evidence);
        fields
    }

    #[test]
    fn the_statement_names_version_5_its_root_and_its_money_by_currency() {
        let lines = [line(0, 10_000, 0, 1_500), line(1, 10_000, 12_000, 1_000)];
        let fields = Value::Object(document(&lines, None));
        assert_eq!(check_proof_version(&fields), Ok(()));
        assert_eq!(fields["leafCount"], 2);
        assert_eq!(fields["amountDue"], json!({"amount": "1300", "currency": "IDR"}));
        assert_eq!(fields["direction"], "operator_to_platform");
        assert_eq!(fields["stakes"], json!([{"amount": "20000", "currency": "IDR"}]));
        assert_eq!(fields["exchangeEvidence"], Value::Null);
        let leaves: Vec<TreeHash> = lines.iter().map(|l| l.leaf_hash().expect("leaf")).collect();
        let proof = InclusionProof::from_leaf_hashes(&leaves, 1).expect("proof");
        let root = TreeHash::from_hex(fields["merkleRoot"].as_str().expect("root")).expect("hex");
        assert_eq!(proof.verify(&leaves[1], &root), Ok(()));
    }

    #[test]
    fn the_tree_a_statement_names_is_read_back_and_a_malformed_one_is_none() {
        let lines = [line(0, 10_000, 0, 1_500)];
        let fields = Value::Object(document(&lines, None));
        let named = ProofSummary::named_in(&fields).expect("named");
        assert_eq!(named.leaf_count, 1);
        assert_eq!(named.merkle_root, lines[0].leaf_hash().expect("leaf"));
        assert_eq!(
            ProofSummary::named_in(&json!({"merkleRoot": "zz", "leafCount": 1})),
            None
        );
        assert_eq!(
            ProofSummary::named_in(&json!({"merkleRoot": named.merkle_root, "leafCount": -1})),
            None
        );
        assert_eq!(ProofSummary::named_in(&json!({"leafCount": 1})), None);
    }

    fn any_line() -> impl Strategy<Value = (i64, i64, u16)> {
        (
            1..10_000_000i64,
            prop_oneof![Just(0i64), 1..1_000_000_000i64],
            0..=10_000u16,
        )
    }

    fn any_rate() -> impl Strategy<Value = String> {
        (1u64..100_000_000, 0u32..100_000).prop_map(|(whole, fraction)| format!("{whole}.{fraction}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn changing_the_rate_changes_no_amount(
            money in prop::collection::vec(any_line(), 0..60),
            one in any_rate(),
            other in any_rate(),
        ) {
            let lines: Vec<ProofLine> = money
                .iter()
                .enumerate()
                .map(|(n, (stake, payout, bps))| line(n as u64, *stake, *payout, *bps))
                .collect();
            let without = document(&lines, None);
            let mut with_one = document(&lines, Some(&evidence(&one)));
            let mut with_other = document(&lines, Some(&evidence(&other)));
            prop_assert_eq!(with_one.remove("exchangeEvidence").map(|e| e["rate"].clone()), Some(json!(one)));
            prop_assert_eq!(with_other.remove("exchangeEvidence").map(|e| e["rate"].clone()), Some(json!(other)));
            let mut without = without;
            without.remove("exchangeEvidence");
            prop_assert_eq!(&with_one, &without);
            prop_assert_eq!(&with_other, &without);
            let totals = ReportTotals::of(lines.iter().map(|l| &l.money));
            let (due, direction) = totals.amount_due();
            prop_assert_eq!(&without["amountDue"], &json!(Money::idr(due.get())));
            prop_assert_eq!(&without["direction"], &json!(direction.as_str()));
        }
    }
}
