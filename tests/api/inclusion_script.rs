//! The operator's inclusion proof script (`docs/flight/verify_inclusion.py`), run as an
//! operator runs it, on proofs the domain made from real ticket lines: it accepts the real
//! proof and refuses a changed line, another leaf's line, a wrong index, a wrong size, a
//! proof version other than 5, and a root the signed statement does not name.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use opinion_core::{FlightId, TicketId};
use opinion_flight::{ReportLine, Rupiah, ShareBps};
use opinion_proof::{
    InclusionProof, LineOutcome, PROOF_VERSION, PlayerKey, ProofLine, TreeHash, root_of, write_proof_fields,
};
use serde_json::{Map, Value, json};

/// Runs `python3 docs/flight/verify_inclusion.py <args>` with `proof` on stdin.
fn run_script(args: &[&str], proof: &Value) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/flight/verify_inclusion.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("python3 is needed to run {} ({error})", script.display()));
    let mut input = child.stdin.take().expect("the script's stdin");
    input.write_all(proof.to_string().as_bytes()).expect("wrote the proof");
    drop(input);
    child.wait_with_output().expect("the script ran")
}

/// Whether the script accepted, after checking it printed its verdict and nothing else.
pub fn accepted(args: &[&str], proof: &Value) -> bool {
    let output = run_script(args, proof);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    match output.status.code() {
        Some(0) => assert!(stdout.starts_with("OK: ticket tkt_"), "{stdout}"),
        Some(1) => assert!(stdout.starts_with("FAILED: "), "{stdout}"),
        other => panic!("exit status {other:?}: {stdout}"),
    }
    output.status.success()
}

/// 37 ticket lines of a statement, as JSON, in ticket order.
fn lines() -> Vec<Value> {
    let key = PlayerKey::from_bytes([5; 32]);
    (0..37u32)
        .map(|i| {
            let cashed_out = i % 4 == 0;
            ProofLine {
                ticket_id: TicketId::from_u128(500 + u128::from(i)),
                flight_id: FlightId::from_u128(90 + u128::from(i / 6)),
                player_tag: key.tag(&format!("player é {}", i % 9)),
                purchased_at: time::macros::datetime!(2026-10-05 08:00:00.123 UTC) + time::Duration::minutes(i.into()),
                outcome: if cashed_out {
                    LineOutcome::CashedOut
                } else {
                    LineOutcome::Lost
                },
                money: ReportLine {
                    stake: Rupiah::new(10_000 + i64::from(i)).expect("rupiah"),
                    payout: Rupiah::new(if cashed_out { 34_600 } else { 0 }).expect("rupiah"),
                    refund: Rupiah::ZERO,
                    share_bps: ShareBps::new(1_500).expect("bps"),
                },
            }
            .to_json()
        })
        .collect()
}

fn leaf(line: &Value) -> TreeHash {
    opinion_proof::leaf_hash(&opinion_statement::canonical_bytes(line).expect("canonical"))
}

/// The proof of leaf `index`, as a ticket's proof is published.
fn proof_of(lines: &[Value], index: u64) -> Value {
    let leaves: Vec<TreeHash> = lines.iter().map(leaf).collect();
    let proof = InclusionProof::from_leaf_hashes(&leaves, index).expect("proof");
    let mut document = serde_json::to_value(&proof).expect("json");
    document["proofVersion"] = json!(PROOF_VERSION);
    document["merkleRoot"] = json!(root_of(&leaves));
    document["line"] = lines[index as usize].clone();
    document
}

/// A statement naming the tree of `lines`, written where the script can read it.
fn statement_file(lines: &[Value], name: &str) -> PathBuf {
    let leaves: Vec<TreeHash> = lines.iter().map(leaf).collect();
    let summary = opinion_proof::ProofSummary {
        merkle_root: root_of(&leaves),
        leaf_count: leaves.len() as u64,
    };
    let money = opinion_proof::StatementMoney::of(&opinion_flight::ReportTotals::default());
    let mut fields = Map::new();
    write_proof_fields(&mut fields, &summary, &money, None);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let signed = json!({"document": Value::Object(fields), "signature": {}});
    std::fs::write(&path, signed.to_string()).expect("wrote the statement");
    path
}

#[test]
fn the_script_accepts_every_real_proof() {
    let lines = lines();
    for index in [0, 1, 17, 31, 32, 36] {
        assert!(accepted(&[], &proof_of(&lines, index)), "leaf {index}");
    }
}

#[test]
fn the_script_refuses_a_changed_line_another_leaf_and_a_wrong_place() {
    let lines = lines();
    let proof = proof_of(&lines, 17);

    let mut changed = proof.clone();
    changed["line"]["stake"]["amount"] = json!("10018");
    assert!(!accepted(&[], &changed), "a changed stake");
    let mut retagged = proof.clone();
    retagged["line"]["playerTag"] = lines[18]["playerTag"].clone();
    assert!(!accepted(&[], &retagged), "another player's tag");

    let mut swapped = proof.clone();
    swapped["line"] = lines[16].clone();
    assert!(!accepted(&[], &swapped), "the line of the leaf beside it");

    for wrong in [16, 18, 36, 37] {
        let mut moved = proof.clone();
        moved["leafIndex"] = json!(wrong);
        assert!(!accepted(&[], &moved), "index {wrong}");
    }
    let mut resized = proof.clone();
    resized["treeSize"] = json!(20);
    assert!(!accepted(&[], &resized), "a tree of 20");
    let mut shortened = proof.clone();
    shortened["auditPath"].as_array_mut().expect("path").pop();
    assert!(!accepted(&[], &shortened), "a path too short");
}

#[test]
fn the_script_refuses_every_proof_version_but_5() {
    let proof = proof_of(&lines(), 3);
    for version in [json!(4), json!(6), json!("5"), json!(5.0), json!(true), Value::Null] {
        let mut other = proof.clone();
        other["proofVersion"] = version.clone();
        assert!(!accepted(&[], &other), "{version}");
    }
    let mut missing = proof;
    missing.as_object_mut().expect("object").remove("proofVersion");
    assert!(!accepted(&[], &missing), "no version");
}

#[test]
fn the_script_checks_the_root_and_size_against_the_signed_statement() {
    let lines = lines();
    let proof = proof_of(&lines, 9);
    let honest = statement_file(&lines, "inclusion-statement-honest.json");
    assert!(accepted(&["--statement", honest.to_str().expect("path")], &proof));
    let other = statement_file(&lines[..36], "inclusion-statement-other.json");
    assert!(!accepted(&["--statement", other.to_str().expect("path")], &proof));
}
