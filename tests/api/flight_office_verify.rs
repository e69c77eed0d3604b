//! Verifying signed statements as an operator does, with `opinion admin statement verify`
//! and with the published Python script (`docs/flight/verify_statement.py`) on exports
//! read over HTTP: a genuine chain verifies, and a changed byte, a dropped or reordered
//! statement and a document issued after its key's retirement are each caught, naming
//! what failed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use opinion_statement::{SignedDocument, StatementKey, sign};
use opinion_testkit::{TermsSeed, ulid_at};
use serde_json::Value;
use time::macros::datetime;

use crate::admin_settlement::{admin, admin_fails};
use crate::flight_office_reports::export_bytes;
use crate::flight_reads_seed::{Chain, given_flights, given_player, lost_ticket};
use crate::helpers::{TEST_STATEMENT_KEY, TestApp, spawn_app};
use crate::trading_seed::{bits, seeder};

/// A directory of its own for one test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("opinion-{name}-{}", ulid::Ulid::new()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Lost tickets in August, September and October (terms from July), finalized in order:
/// statements 1, 2 and 3 of the operator's chain.
pub async fn given_three_statements(app: &TestApp) -> Vec<String> {
    let mut seed = seeder(app).await;
    given_flights(&mut seed, &Chain::new(), 3).await;
    let terms = ulid_at(datetime!(2026-07-01 00:00 UTC), 901) + bits(&app.operator);
    seed.flight_terms(&TermsSeed {
        operator: bits(&app.operator),
        id: terms,
        share_bps: 1_500,
        effective_from: datetime!(2026-07-01 00:00 UTC),
    })
    .await;
    let player = given_player(&mut seed, &app.operator, 1, "p-1").await;
    let operator = app.operator.id.to_string();
    let mut ids = Vec::new();
    for (n, (month, bought)) in [
        ("2026-08", datetime!(2026-08-05 10:00 UTC)),
        ("2026-09", datetime!(2026-09-05 10:00 UTC)),
        ("2026-10", datetime!(2026-10-05 10:00 UTC)),
    ]
    .into_iter()
    .enumerate()
    {
        let n = u16::try_from(n).expect("small");
        seed.flight_ticket(&lost_ticket(&player, terms, 1, 300 + n, bought))
            .await;
        let finalized = admin(app, &["flight", "finalize", "--operator", &operator, "--period", month]).await;
        ids.push(finalized["reportId"].as_str().expect("id").to_owned());
    }
    ids
}

/// Writes the export of `report` (with `query`) into `dir/name`.
pub async fn export_to(app: &TestApp, report: &str, query: &str, dir: &Path, name: &str) -> PathBuf {
    let key = app.key_with(&["flight_settlements:read"]).await;
    let path = format!("/api/operator/flight/settlement-reports/{report}/export{query}");
    let (_, bytes) = export_bytes(app, &path, &key).await;
    let file = dir.join(name);
    std::fs::write(&file, bytes).expect("written");
    file
}

/// Writes the published keys into `dir/keys.json`.
pub async fn published_keys(app: &TestApp, dir: &Path) -> PathBuf {
    let keys = app
        .client
        .get(format!("{}/.well-known/opinion-statement-keys.json", app.address))
        .send()
        .await
        .expect("keys")
        .bytes()
        .await
        .expect("body");
    let file = dir.join("keys.json");
    std::fs::write(&file, keys).expect("written");
    file
}

fn path(file: &Path) -> &str {
    file.to_str().expect("a UTF-8 path")
}

/// Runs `python3 docs/flight/verify_statement.py <args>`. `cryptography` must be
/// installed (`.ci/run` installs it): without it the test fails saying how to install it.
pub fn run_python(args: &[&str]) -> Output {
    let have = Command::new("python3")
        .args(["-c", "import cryptography"])
        .output()
        .expect("python3 is needed to run docs/flight/verify_statement.py: install Python 3");
    assert!(
        have.status.success(),
        "the statement verification script needs the Python `cryptography` package: \
         apt-get install python3-cryptography (or pip install cryptography); .ci/run installs it"
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/flight/verify_statement.py");
    Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .expect("the script ran")
}

/// Changes the file's JSON with `change` and writes it as `name`.
fn tampered(file: &Path, name: &str, change: impl FnOnce(&mut Value)) -> PathBuf {
    let mut value: Value = serde_json::from_slice(&std::fs::read(file).expect("read")).expect("JSON");
    change(&mut value);
    let out = file.with_file_name(name);
    std::fs::write(&out, serde_json::to_vec(&value).expect("JSON")).expect("written");
    out
}

#[tokio::test]
async fn a_genuine_chain_verifies_and_every_tampering_is_named() {
    let app = spawn_app().await;
    let ids = given_three_statements(&app).await;
    let dir = scratch("verify");
    let keys = published_keys(&app, &dir).await;
    let first = export_to(&app, &ids[0], "", &dir, "august.json").await;
    let second = export_to(&app, &ids[1], "", &dir, "september.json").await;
    let third = export_to(&app, &ids[2], "", &dir, "october.json").await;

    let verified = admin(
        &app,
        &["statement", "verify", path(&third), "--previous", path(&second)],
    )
    .await;
    assert_eq!(verified["verified"], true);
    assert_eq!(verified["sequence"], 3);
    assert_eq!(verified["lines"], "matches");
    assert_eq!(verified["chain"], "follows the previous document");
    assert_eq!(verified["proofVersion"], "5");
    assert_eq!(
        verified["proof"],
        "merkleRoot and leafCount (1) recomputed from the lines"
    );
    assert_eq!(verified["totals"], "the lines sum to the signed totals and amount due");
    let with_keys = admin(&app, &["statement", "verify", path(&first), "--keys", path(&keys)]).await;
    assert_eq!(with_keys["chain"], "first of the chain");

    let statement = export_to(&app, &ids[2], "?part=statement", &dir, "october-statement.json").await;
    let lines = export_to(&app, &ids[2], "?part=lines", &dir, "october-lines.csv").await;
    let alone = admin_fails(&app, &["statement", "verify", path(&statement)]).await;
    assert!(alone.contains("linesSha256") && alone.contains("--lines"), "{alone}");
    let with_lines = admin(
        &app,
        &["statement", "verify", path(&statement), "--lines", path(&lines)],
    )
    .await;
    assert_eq!(with_lines["lines"], "matches");
    assert!(
        with_lines["proof"]
            .as_str()
            .is_some_and(|p| p.starts_with("not checked")),
        "without the player key no leaf can be made: {with_lines}"
    );
    assert_eq!(
        with_lines["totals"],
        "the lines sum to the signed totals and amount due"
    );

    let amount = tampered(&third, "amount.json", |v| {
        v["statement"]["document"]["amountDue"] = "1".into()
    });
    let refused = admin_fails(&app, &["statement", "verify", path(&amount)]).await;
    assert!(refused.contains("signature: the signature does not match"), "{refused}");
    let line = tampered(&third, "line.json", |v| {
        let csv = v["lines"].as_str().expect("lines").replacen(",lost,", ",lust,", 1);
        v["lines"] = csv.into();
    });
    let refused = admin_fails(&app, &["statement", "verify", path(&line)]).await;
    assert!(refused.contains("linesSha256: the ticket lines hash to"), "{refused}");

    let dropped = admin_fails(&app, &["statement", "verify", path(&third), "--previous", path(&first)]).await;
    assert!(
        dropped.contains("chain:") && dropped.contains("expected sequence 2"),
        "{dropped}"
    );
    let reordered = admin_fails(
        &app,
        &["statement", "verify", path(&second), "--previous", path(&third)],
    )
    .await;
    assert!(reordered.contains("chain:"), "{reordered}");

    for (file, previous, ok) in [
        (&third, Some(&second), true),
        (&amount, None, false),
        (&line, None, false),
        (&third, Some(&first), false),
    ] {
        let mut args = vec![path(file), "--keys", path(&keys)];
        if let Some(previous) = previous {
            args.extend(["--previous", path(previous)]);
        }
        let output = run_python(&args);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            output.status.success(),
            ok,
            "{args:?}\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(stdout.contains("FAIL"), !ok, "{stdout}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn a_document_issued_after_its_keys_retirement_is_refused() {
    let app = spawn_app().await;
    let ids = given_three_statements(&app).await;
    let dir = scratch("retired");
    let old = export_to(&app, &ids[0], "", &dir, "august.json").await;
    let new_key = dir.join("new.key");
    std::fs::write(&new_key, StatementKey::from_seed([7; 32]).to_hex()).expect("written");
    admin(&app, &["statement-keys", "rotate", "--key-file", path(&new_key)]).await;

    let still = admin(&app, &["statement", "verify", path(&old)]).await;
    assert_eq!(
        still["verified"], true,
        "what the old key signed before retiring still verifies"
    );
    let key = StatementKey::from_hex(TEST_STATEMENT_KEY).expect("the test key");
    let late = tampered(&old, "late.json", |v| {
        let mut signed: SignedDocument = serde_json::from_value(v["statement"].clone()).expect("signed");
        signed.document["issuedAt"] = "2099-01-01T00:00:00Z".into();
        let resigned = sign(signed.document, &key).expect("signed again");
        v["statement"] = serde_json::to_value(resigned).expect("JSON");
    });
    let refused = admin_fails(&app, &["statement", "verify", path(&late)]).await;
    assert!(
        refused.contains("signature: key") && refused.contains("retired"),
        "{refused}"
    );
    let keys = published_keys(&app, &dir).await;
    let output = run_python(&[path(&late), "--keys", path(&keys)]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "{stdout}");
    assert!(stdout.contains("FAIL the key was not retired"), "{stdout}");
    std::fs::remove_dir_all(dir).ok();
}
