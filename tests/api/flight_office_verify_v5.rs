//! The v5 parts of a statement and a correction, verified by both verifiers (`opinion
//! admin statement verify` and `docs/flight/verify_statement.py`) on a real export read
//! over HTTP: a genuine export passes every check, and each tampering is caught by both,
//! naming the check it breaks: a changed or dropped ticket line (with and without its
//! hash fixed up, and re-signed), a wrong player key, an altered exchange rate, a
//! document of another proof version, and a correction whose arithmetic or amended
//! statement does not hold.

use std::path::{Path, PathBuf};

use opinion_statement::{SignedDocument, StatementKey, document_hash, sign};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::admin_cli::run;
use crate::flight_office_proofs::{Exchange, finalize_with_exchange, stand_in_exchange};
use crate::flight_office_reports::given_two_periods;
use crate::flight_office_verify::{export_to, published_keys, run_python, scratch};
use crate::helpers::{TEST_STATEMENT_KEY, TestApp, spawn_app};

fn path(file: &Path) -> &str {
    file.to_str().expect("a UTF-8 path")
}

/// What both verifiers said of one file.
struct Verdicts {
    rust: Result<Value, String>,
    python_ok: bool,
    python: String,
}

async fn both(app: &TestApp, file: &Path, extra: &[&str], keys: &Path) -> Verdicts {
    let mut args = vec!["statement", "verify", path(file), "--keys", path(keys)];
    args.extend(extra);
    let mut python_args = vec![path(file), "--keys", path(keys)];
    python_args.extend(extra);
    let output = run_python(&python_args);
    let python = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let python_ok = output.status.success();
    let probe = admin_probe(app, &args).await;
    Verdicts {
        rust: probe,
        python_ok,
        python,
    }
}

/// Runs `opinion admin <args>`: its JSON when it passes, its stderr when it fails.
async fn admin_probe(app: &TestApp, args: &[&str]) -> Result<Value, String> {
    let mut owned = vec!["admin".to_owned()];
    owned.extend(args.iter().map(|a| (*a).to_owned()));
    let database = app.db.url().to_owned();
    let output = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = owned.iter().map(String::as_str).collect();
        run(&database, &args)
    })
    .await
    .expect("joined");
    if output.status.success() {
        Ok(serde_json::from_slice(&output.stdout).expect("one JSON object on stdout"))
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Asserts that both verifiers refuse, the Rust one naming exactly `rust_failed` among
/// the checks and the Python one failing `python_failed` (the start of its lines).
fn refused(verdicts: &Verdicts, rust_failed: &[&str], python_failed: &[&str], what: &str) {
    let stderr = verdicts
        .rust
        .as_ref()
        .err()
        .unwrap_or_else(|| panic!("{what}: the command accepted it: {:?}", verdicts.rust));
    for check in [
        "signature:",
        "proofVersion:",
        "linesSha256:",
        "proof:",
        "totals:",
        "arithmetic:",
        "amendment:",
        "chain:",
    ] {
        let named = stderr.lines().any(|line| line.contains(check));
        assert_eq!(
            named,
            rust_failed.contains(&check),
            "{what}: `{check}` in the command's failures\n{stderr}"
        );
    }
    assert!(
        !verdicts.python_ok,
        "{what}: the script accepted it\n{}",
        verdicts.python
    );
    for check in python_failed {
        assert!(
            verdicts.python.contains(&format!("FAIL {check}")),
            "{what}: the script does not fail `{check}`\n{}",
            verdicts.python
        );
    }
}

/// Changes the export's JSON with `change` and writes it as `name`.
fn changed(file: &Path, name: &str, change: impl FnOnce(&mut Value)) -> PathBuf {
    let mut value: Value = serde_json::from_slice(&std::fs::read(file).expect("read")).expect("JSON");
    change(&mut value);
    let out = file.with_file_name(name);
    std::fs::write(&out, serde_json::to_vec(&value).expect("JSON")).expect("written");
    out
}

fn test_key() -> StatementKey {
    StatementKey::from_hex(TEST_STATEMENT_KEY).expect("the test key")
}

/// Signs `document` again with the platform's test key (as a forger holding the key would).
fn resigned(document: Value) -> Value {
    let mut document = document;
    if let Some(fields) = document.as_object_mut() {
        fields.remove("keyId");
    }
    serde_json::to_value(sign(document, &test_key()).expect("signed")).expect("JSON")
}

fn lines_sha256(csv: &str) -> String {
    hex::encode(Sha256::digest(csv.as_bytes()))
}

/// The export's CSV with its first line's stake doubled, its GGR and share following.
fn doubled_first_stake(csv: &str) -> String {
    let changed = csv.replacen(
        ",lost,10000,0,0,10000,1500,1500\r\n",
        ",lost,20000,0,0,20000,1500,3000\r\n",
        1,
    );
    assert_ne!(changed, csv, "the export's lines are lost 10 000 IDR tickets at 15%");
    changed
}

/// The export's CSV without its last line.
fn without_last_line(csv: &str) -> String {
    let body = csv.strip_suffix("\r\n").expect("CRLF");
    let cut = body.rfind("\r\n").expect("more than one row");
    format!("{}\r\n", &body[..cut])
}

#[tokio::test]
async fn both_verifiers_check_the_v5_statement_and_name_each_tampering() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let report = finalize_with_exchange(&app, stand_in_exchange(Exchange::Quotes).await).await;
    let dir = scratch("verify-v5");
    let keys = published_keys(&app, &dir).await;
    let export = export_to(&app, &report, "", &dir, "october.json").await;

    let genuine = both(&app, &export, &[], &keys).await;
    let verified = genuine.rust.as_ref().expect("the genuine export verifies");
    assert_eq!(verified["proofVersion"], "5");
    assert_eq!(
        verified["proof"],
        "merkleRoot and leafCount (3) recomputed from the lines"
    );
    assert_eq!(verified["totals"], "the lines sum to the signed totals and amount due");
    assert!(genuine.python_ok, "{}", genuine.python);
    for check in ["proofVersion:", "proof:", "totals:"] {
        assert!(genuine.python.contains(&format!("OK   {check}")), "{}", genuine.python);
    }
    assert!(!genuine.python.contains("FAIL"), "{}", genuine.python);

    let statement = export_to(&app, &report, "?part=statement", &dir, "statement.json").await;
    let lines = export_to(&app, &report, "?part=lines", &dir, "lines.csv").await;
    let original: Value = serde_json::from_slice(&std::fs::read(&export).expect("read")).expect("JSON");
    let player_key = original["playerKey"].as_str().expect("the key").to_owned();
    let parts = both(
        &app,
        &statement,
        &["--lines", path(&lines), "--player-key", &player_key],
        &keys,
    )
    .await;
    assert_eq!(
        parts.rust.as_ref().expect("the parts verify")["proof"],
        verified["proof"]
    );
    assert!(
        parts.python_ok && parts.python.contains("OK   proof:"),
        "{}",
        parts.python
    );

    let fixed_up = changed(&export, "fixed-up.json", |v| {
        let csv = doubled_first_stake(v["lines"].as_str().expect("lines"));
        v["statement"]["document"]["linesSha256"] = lines_sha256(&csv).into();
        v["lines"] = csv.into();
    });
    refused(
        &both(&app, &fixed_up, &[], &keys).await,
        &["signature:", "proof:", "totals:"],
        &["the Ed25519 signature", "proof:", "totals:"],
        "a changed line with its hash fixed up",
    );

    let csv_only = changed(&export, "csv-only.json", |v| {
        v["lines"] = doubled_first_stake(v["lines"].as_str().expect("lines")).into();
    });
    refused(
        &both(&app, &csv_only, &[], &keys).await,
        &["linesSha256:", "proof:", "totals:"],
        &["the ticket lines hash", "proof:", "totals:"],
        "a changed line",
    );

    let forged = changed(&export, "forged.json", |v| {
        let csv = doubled_first_stake(v["lines"].as_str().expect("lines"));
        let mut document = v["statement"]["document"].clone();
        document["linesSha256"] = lines_sha256(&csv).into();
        v["statement"] = resigned(document);
        v["lines"] = csv.into();
    });
    refused(
        &both(&app, &forged, &[], &keys).await,
        &["proof:", "totals:"],
        &["proof:", "totals:"],
        "a changed line, its hash fixed up and signed again",
    );

    let dropped = changed(&export, "dropped.json", |v| {
        v["lines"] = without_last_line(v["lines"].as_str().expect("lines")).into();
    });
    refused(
        &both(&app, &dropped, &[], &keys).await,
        &["linesSha256:", "proof:", "totals:"],
        &["the ticket lines hash", "proof:", "totals:"],
        "a dropped line",
    );
    let dropped_signed = changed(&export, "dropped-signed.json", |v| {
        let csv = without_last_line(v["lines"].as_str().expect("lines"));
        let mut document = v["statement"]["document"].clone();
        document["linesSha256"] = lines_sha256(&csv).into();
        v["statement"] = resigned(document);
        v["lines"] = csv.into();
    });
    refused(
        &both(&app, &dropped_signed, &[], &keys).await,
        &["proof:", "totals:"],
        &["proof:", "totals:"],
        "a dropped line, signed again",
    );

    let wrong_key = changed(&export, "wrong-key.json", |v| {
        v["playerKey"] = "00".repeat(32).into();
    });
    refused(
        &both(&app, &wrong_key, &[], &keys).await,
        &["proof:"],
        &["proof:"],
        "another player key",
    );

    let rate = changed(&export, "rate.json", |v| {
        let evidence = &mut v["statement"]["document"]["exchangeEvidence"];
        assert_eq!(evidence["rate"], "16250.5");
        evidence["rate"] = "15000".into();
    });
    refused(
        &both(&app, &rate, &[], &keys).await,
        &["signature:"],
        &["the Ed25519 signature"],
        "an altered exchange rate",
    );

    for (name, version) in [("v4.json", json!(4)), ("v5-text.json", json!("5"))] {
        let other = changed(&export, name, |v| {
            let mut document = v["statement"]["document"].clone();
            document["proofVersion"] = version;
            v["statement"] = resigned(document);
        });
        refused(
            &both(&app, &other, &[], &keys).await,
            &["proofVersion:"],
            &["proofVersion:"],
            name,
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// A v5 correction of `statement` by −1 500 (4 500 due before), its `amountDue` as given,
/// chained right after the statement and signed with the test key.
fn correction_of(statement: &Value, amount_due: i64, change: impl FnOnce(&mut Value)) -> Value {
    let idr = |amount: i64| json!({"amount": amount.to_string(), "currency": "IDR"});
    let hash = document_hash(statement).expect("hash").to_string();
    let mut document = json!({
        "type": "flight_statement_correction",
        "operatorId": statement["operatorId"],
        "correctionId": "fsc_01jdz3qv6mz8x5c0a2t5d4e7h7",
        "reportId": statement["reportId"],
        "periodStart": statement["periodStart"],
        "periodEnd": statement["periodEnd"],
        "proofVersion": 5,
        "merkleRoot": statement["merkleRoot"],
        "leafCount": statement["leafCount"],
        "statementHash": hash,
        "statementSequence": statement["sequence"],
        "amountChange": idr(-1_500),
        "amountDueBefore": idr(4_500),
        "directionBefore": "operator_to_platform",
        "amountDue": idr(amount_due),
        "direction": "operator_to_platform",
        "currency": "IDR",
        "reason": "a reviewed ticket resolved as not applied",
        "issuedAt": "2026-11-05T10:00:00Z",
        "sequence": statement["sequence"].as_u64().expect("sequence") + 1,
        "previousHash": hash,
    });
    change(&mut document);
    resigned(document)
}

#[tokio::test]
async fn both_verifiers_check_a_v5_corrections_arithmetic_and_the_statement_it_amends() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let report = crate::flight_office_reports::finalize_october(&app).await;
    let dir = scratch("verify-v5-correction");
    let keys = published_keys(&app, &dir).await;
    let export = export_to(&app, &report, "", &dir, "october.json").await;
    let exported: Value = serde_json::from_slice(&std::fs::read(&export).expect("read")).expect("JSON");
    let statement: SignedDocument = serde_json::from_value(exported["statement"].clone()).expect("signed");
    assert_eq!(statement.document["amountDue"]["amount"], "4500");

    let write = |name: &str, value: &Value| {
        let file = dir.join(name);
        std::fs::write(&file, serde_json::to_vec(value).expect("JSON")).expect("written");
        file
    };
    let good = write("correction.json", &correction_of(&statement.document, 3_000, |_| {}));
    for extra in [&["--previous", path(&export)][..], &["--amends", path(&export)][..]] {
        let verdicts = both(&app, &good, extra, &keys).await;
        let verified = verdicts.rust.as_ref().expect("a genuine correction verifies");
        assert_eq!(
            verified["arithmetic"],
            "amountDue is amountDueBefore moved by amountChange"
        );
        assert_eq!(verified["amendment"], "names the amended statement and its tree");
        assert!(verdicts.python_ok, "{}", verdicts.python);
        assert!(verdicts.python.contains("OK   arithmetic:") && verdicts.python.contains("OK   amendment:"));
    }

    let wrong_due = write("wrong-due.json", &correction_of(&statement.document, 3_500, |_| {}));
    refused(
        &both(&app, &wrong_due, &["--previous", path(&export)], &keys).await,
        &["arithmetic:"],
        &["arithmetic:"],
        "an amount due that does not follow",
    );
    let turned = write(
        "turned.json",
        &correction_of(&statement.document, 3_000, |d| {
            d["direction"] = "platform_to_operator".into();
        }),
    );
    refused(
        &both(&app, &turned, &[], &keys).await,
        &["arithmetic:"],
        &["arithmetic:"],
        "the other direction",
    );
    let other_tree = write(
        "other-tree.json",
        &correction_of(&statement.document, 3_000, |d| d["leafCount"] = json!(4)),
    );
    refused(
        &both(&app, &other_tree, &["--amends", path(&export)], &keys).await,
        &["amendment:"],
        &["amendment:"],
        "another tree than the amended statement's",
    );
    let v4 = write(
        "v4-correction.json",
        &correction_of(&statement.document, 3_000, |d| d["proofVersion"] = json!(4)),
    );
    refused(
        &both(&app, &v4, &[], &keys).await,
        &["proofVersion:"],
        &["proofVersion:"],
        "a correction of proof version 4",
    );
    std::fs::remove_dir_all(dir).ok();
}
