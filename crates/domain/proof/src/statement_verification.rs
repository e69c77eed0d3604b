//! Everything a verifier checks of one signed v5 statement given its ticket lines, its
//! player key and the document before it in the operator's chain, each check named with
//! what it found or why it failed: the Ed25519 signature under a published key (the
//! retired-key rule included), `type`, `proofVersion` 5, the lines' SHA-256 against
//! `linesSha256`, the lines recomputed into the signed `merkleRoot` and `leafCount` and
//! into the signed totals, and the link to the previous document. Each rule is the one
//! its own module (or `opinion-statement`) states; this file only runs them all, so a
//! page that shows a statement's verification answers what a verifier would.

use opinion_statement::{KnownKey, SignedDocument, verify, verify_link};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::lines_csv::recompute_lines;
use crate::player_tag::PlayerKey;
use crate::verify_correction::STATEMENT_TYPE;
use crate::verify_statement::{check_totals, check_tree};
use crate::version::check_proof_version;

/// One check and its outcome: what it found, or why it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerificationCheck {
    /// What was checked (`signature`, `type`, `proofVersion`, `linesSha256`, `proof`,
    /// `totals`, `chain`).
    pub name: &'static str,
    /// What it found, or why it failed.
    pub outcome: Result<String, String>,
}

/// What a statement is verified against.
pub struct StatementEvidence<'a> {
    /// The signed statement.
    pub signed: &'a SignedDocument,
    /// Its ticket-lines CSV, the bytes `linesSha256` names.
    pub lines: &'a [u8],
    /// The statement's player key, which tags the lines' players in the tree; `None`
    /// when none is at hand (the tree cannot be recomputed, so the proof check fails).
    pub player_key: Option<&'a PlayerKey>,
    /// The document before it in the operator's chain; `None` for the first.
    pub previous: Option<&'a Value>,
}

/// Every check of one statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementVerification {
    /// The checks, in the order above.
    pub checks: Vec<VerificationCheck>,
}

impl StatementVerification {
    /// Whether every check passed.
    pub fn verified(&self) -> bool {
        self.checks.iter().all(|check| check.outcome.is_ok())
    }

    /// The checks that failed.
    pub fn failures(&self) -> impl Iterator<Item = &VerificationCheck> {
        self.checks.iter().filter(|check| check.outcome.is_err())
    }
}

/// Verifies `evidence` against the published keys (`key_for` finds one by id).
pub fn verify_statement(
    evidence: &StatementEvidence<'_>,
    key_for: impl Fn(&str) -> Option<KnownKey>,
) -> StatementVerification {
    let document = &evidence.signed.document;
    let mut checks = Vec::new();
    let mut push =
        |name: &'static str, outcome: Result<String, String>| checks.push(VerificationCheck { name, outcome });
    push(
        "signature",
        verify(evidence.signed, key_for)
            .map(|_| format!("signed by key {}", evidence.signed.signature.key_id))
            .map_err(|error| error.to_string()),
    );
    push(
        "type",
        match document.get("type").and_then(Value::as_str) {
            Some(STATEMENT_TYPE) => Ok(STATEMENT_TYPE.to_owned()),
            other => Err(format!("{} is not {STATEMENT_TYPE}", other.unwrap_or("(none)"))),
        },
    );
    push(
        "proofVersion",
        check_proof_version(document)
            .map(|()| "5".to_owned())
            .map_err(|error| error.to_string()),
    );
    push("linesSha256", lines_hash(document, evidence.lines));
    match recompute_lines(evidence.lines, evidence.player_key) {
        Ok(recomputed) => {
            let proof = match recomputed.tree {
                Some(tree) => check_tree(document, &tree)
                    .map(|()| {
                        format!(
                            "merkleRoot and leafCount ({}) recomputed from the lines",
                            tree.leaf_count
                        )
                    })
                    .map_err(|error| error.to_string()),
                None => Err("no player key to recompute the tree's leaves with".to_owned()),
            };
            push("proof", proof);
            push(
                "totals",
                check_totals(document, &recomputed.totals)
                    .map(|()| "the lines sum to the signed totals and amount due".to_owned())
                    .map_err(|error| error.to_string()),
            );
        }
        Err(error) => {
            let why = format!("the ticket lines cannot be read back: {error}");
            push("proof", Err(why.clone()));
            push("totals", Err(why));
        }
    }
    push(
        "chain",
        verify_link(document, evidence.previous)
            .map(|()| match evidence.previous {
                Some(_) => "follows the previous document of the chain".to_owned(),
                None => "first of the chain".to_owned(),
            })
            .map_err(|error| error.to_string()),
    );
    StatementVerification { checks }
}

/// The lines' SHA-256 against the document's `linesSha256`.
fn lines_hash(document: &Value, lines: &[u8]) -> Result<String, String> {
    let Some(named) = document.get("linesSha256").and_then(Value::as_str) else {
        return Err("the statement names no linesSha256".to_owned());
    };
    let actual = hex::encode(Sha256::digest(lines));
    if actual == named {
        Ok("the ticket lines hash to it".to_owned())
    } else {
        Err(format!(
            "the ticket lines hash to {actual}, the statement names {named}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use opinion_flight::ReportTotals;
    use opinion_statement::{ChainLink, StatementKey, sign};
    use serde_json::{Map, json};

    use super::*;
    use crate::statement::{StatementMoney, write_proof_fields};

    const HEADER: &str =
        "ticketId,flightId,externalUserId,purchasedAt,outcome,stake,payout,refund,ggr,shareBps,share\r\n";

    fn lines() -> Vec<u8> {
        let row = |ticket: &str, user: &str, payout: i64| {
            let ggr = 10_000 - payout;
            let outcome = if payout > 0 { "cashed_out" } else { "lost" };
            format!(
                "tkt_{ticket},flt_01jb0000000000000000000001,{user},2026-10-05T10:00:00Z,{outcome},10000,{payout},0,{ggr},1500,{}\r\n",
                ggr * 1_500 / 10_000
            )
        };
        format!(
            "{HEADER}{}{}",
            row("01jb0000000000000000000011", "p-1", 0),
            row("01jb0000000000000000000012", "p-2", 20_000)
        )
        .into_bytes()
    }

    fn key() -> StatementKey {
        StatementKey::from_seed([7; 32])
    }

    fn player_key() -> PlayerKey {
        PlayerKey::from_hex(&"ab".repeat(32)).expect("a key")
    }

    fn known(asked: &str) -> Option<KnownKey> {
        (asked == key().key_id().as_str()).then(|| KnownKey {
            public_key: key().public_key(),
            retired_at: None,
        })
    }

    /// The statement signing `lines` as finalization writes it, after `previous`.
    fn statement(lines: &[u8], previous: Option<&Value>) -> SignedDocument {
        let recomputed = recompute_lines(lines, Some(&player_key())).expect("lines");
        let totals: ReportTotals = recomputed.totals;
        let mut fields = Map::new();
        fields.insert("type".into(), json!(STATEMENT_TYPE));
        fields.insert("ticketCount".into(), json!(totals.ticket_count));
        fields.insert("linesSha256".into(), json!(hex::encode(Sha256::digest(lines))));
        fields.insert("issuedAt".into(), json!("2026-11-01T00:05:00Z"));
        write_proof_fields(
            &mut fields,
            &recomputed.tree.expect("a tree"),
            &StatementMoney::of(&totals),
            None,
        );
        let link = previous.map_or_else(ChainLink::first, |before| ChainLink::after(before).expect("a link"));
        link.write_into(&mut fields);
        sign(Value::Object(fields), &key()).expect("signed")
    }

    fn verified(signed: &SignedDocument, lines: &[u8], previous: Option<&Value>) -> StatementVerification {
        let key = player_key();
        verify_statement(
            &StatementEvidence {
                signed,
                lines,
                player_key: Some(&key),
                previous,
            },
            known,
        )
    }

    fn failed(verification: &StatementVerification) -> Vec<&'static str> {
        verification.failures().map(|check| check.name).collect()
    }

    #[test]
    fn a_genuine_statement_passes_every_check() {
        let lines = lines();
        let first = statement(&lines, None);
        let verification = verified(&first, &lines, None);
        assert!(verification.verified(), "{verification:?}");
        let names: Vec<_> = verification.checks.iter().map(|check| check.name).collect();
        assert_eq!(
            names,
            [
                "signature",
                "type",
                "proofVersion",
                "linesSha256",
                "proof",
                "totals",
                "chain"
            ]
        );
        let second = statement(&lines, Some(&first.document));
        assert!(verified(&second, &lines, Some(&first.document)).verified());
    }

    #[test]
    fn a_changed_amount_fails_the_signature_and_the_totals() {
        let lines = lines();
        let mut changed = statement(&lines, None);
        changed.document["amountDue"] = json!({"amount": "1", "currency": "IDR"});
        let verification = verified(&changed, &lines, None);
        assert!(!verification.verified());
        assert_eq!(failed(&verification), ["signature", "totals"]);
    }

    #[test]
    fn other_lines_another_player_key_or_another_previous_document_fail_their_check() {
        let lines = lines();
        let signed = statement(&lines, None);
        let mut fewer = lines.clone();
        fewer.truncate(lines.len() - 2);
        assert!(failed(&verified(&signed, &fewer, None)).contains(&"linesSha256"));

        let other = PlayerKey::from_hex(&"cd".repeat(32)).expect("a key");
        let verification = verify_statement(
            &StatementEvidence {
                signed: &signed,
                lines: &lines,
                player_key: Some(&other),
                previous: None,
            },
            known,
        );
        assert_eq!(failed(&verification), ["proof"]);
        let without = verify_statement(
            &StatementEvidence {
                signed: &signed,
                lines: &lines,
                player_key: None,
                previous: None,
            },
            known,
        );
        assert_eq!(failed(&without), ["proof"]);

        let first = statement(&lines, None);
        let second = statement(&lines, Some(&first.document));
        assert_eq!(failed(&verified(&second, &lines, None)), ["chain"]);
        assert_eq!(failed(&verified(&second, &lines, Some(&second.document))), ["chain"]);
    }

    #[test]
    fn an_unknown_key_fails_the_signature_only() {
        let lines = lines();
        let signed = statement(&lines, None);
        let key = player_key();
        let verification = verify_statement(
            &StatementEvidence {
                signed: &signed,
                lines: &lines,
                player_key: Some(&key),
                previous: None,
            },
            |_| None,
        );
        assert_eq!(failed(&verification), ["signature"]);
        let why = verification
            .failures()
            .next()
            .and_then(|check| check.outcome.clone().err());
        assert!(why.is_some_and(|why| why.contains("no published key")));
    }
}
