//! `opinion admin statement verify FILE`: checks a signed document of the flight back
//! office (a settlement statement or a correction) as an operator would: its Ed25519
//! signature under a published key (the database's keys, or the well-known JSON given
//! with `--keys`), the retired-key rule, `proofVersion` 5, the SHA-256 of its ticket lines
//! (the CSV inside an export, or `--lines`), and its link to the previous document of the
//! chain (`--previous`). A statement's lines are read back into its totals and (with the
//! export's `playerKey` or `--player-key`) its Merkle root; a correction's arithmetic is
//! checked, and its naming of the statement it amends (`--amends`, or `--previous` when
//! that is it). The rules are `opinion-proof`'s and `opinion-statement`'s; this file reads
//! files and names each check. Every failure is named by its check.

use std::path::Path;

use anyhow::{Context, bail};
use opinion_app::flight::office::FlightOffice;
use opinion_proof::{
    CORRECTION_TYPE, PlayerKey, STATEMENT_TYPE, check_amends, check_correction_arithmetic, check_proof_version,
    check_totals, check_tree, recompute_lines,
};
use opinion_statement::{ChainLink, KnownKey, PublicKey, SignedDocument, document_hash, verify, verify_link};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::admin::rfc3339;
use crate::cli::StatementCommand;

/// A signed document and what came with it in an export.
struct Exported {
    signed: SignedDocument,
    lines: Option<String>,
    player_key: Option<String>,
}

/// Reads a signed document (`{"document", "signature"}`), an export (`{"statement",
/// "lines", "playerKey"}`), a report's detail (`{…, "statement"}`) or a correction as
/// listed (`{…, "document": {"document", "signature"}}`).
fn read_exported(path: &Path) -> anyhow::Result<Exported> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let value: Value = serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let text_of = |field: &str| value.get(field).and_then(Value::as_str).map(str::to_owned);
    let (signed, lines, player_key) = match value.get("statement") {
        Some(statement) if statement.is_object() => (statement.clone(), text_of("lines"), text_of("playerKey")),
        _ => match value.get("document") {
            Some(inner) if inner.get("signature").is_some() => (inner.clone(), None, None),
            _ => (value.clone(), None, None),
        },
    };
    let signed: SignedDocument = serde_json::from_value(signed).with_context(|| {
        format!(
            "{} holds no signed document ({{\"document\", \"signature\"}}) nor an export of one",
            path.display()
        )
    })?;
    Ok(Exported {
        signed,
        lines,
        player_key,
    })
}

/// The keys of a well-known document, `{"keys": [{"keyId", "publicKey", "retiredAt"}]}`;
/// a key whose id is not the one derived from its public key is refused.
fn keys_of_file(path: &Path) -> anyhow::Result<Vec<(String, KnownKey)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let value: Value = serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let Some(keys) = value.get("keys").and_then(Value::as_array) else {
        bail!("{} has no `keys` list", path.display());
    };
    keys.iter()
        .map(|key| {
            let hex = key.get("publicKey").and_then(Value::as_str).unwrap_or_default();
            let public_key = PublicKey::from_hex(hex).with_context(|| format!("the public key `{hex}`"))?;
            let named = key.get("keyId").and_then(Value::as_str).unwrap_or_default();
            if named != public_key.key_id().as_str() {
                bail!(
                    "key: the published id {named} is not the id of its public key ({})",
                    public_key.key_id()
                );
            }
            let retired_at = key.get("retiredAt").and_then(Value::as_str).map(str::to_owned);
            Ok((named.to_owned(), KnownKey { public_key, retired_at }))
        })
        .collect()
}

/// The platform's keys as the database holds them.
async fn keys_of_database(office: &FlightOffice) -> anyhow::Result<Vec<(String, KnownKey)>> {
    Ok(office
        .statement_keys()
        .await?
        .into_iter()
        .map(|record| {
            let known = KnownKey {
                public_key: record.public_key,
                retired_at: record.retired_at.map(rfc3339),
            };
            (record.key_id.to_string(), known)
        })
        .collect())
}

/// Runs one statement command and returns what to print; a document that does not
/// verify is an error naming every check that failed.
pub async fn run(office: &FlightOffice, command: StatementCommand) -> anyhow::Result<Value> {
    let StatementCommand::Verify {
        file,
        previous,
        keys,
        lines,
        player_key,
        amends,
    } = command;
    let keys = match &keys {
        Some(path) => keys_of_file(path)?,
        None => keys_of_database(office).await?,
    };
    let given = Given {
        previous: previous.as_deref(),
        lines: lines.as_deref(),
        player_key: player_key.as_deref(),
        amends: amends.as_deref(),
    };
    verify_file(&file, &given, &keys)
}

/// The files and key given beside the document.
struct Given<'a> {
    previous: Option<&'a Path>,
    lines: Option<&'a Path>,
    player_key: Option<&'a str>,
    amends: Option<&'a Path>,
}

/// Each check's name and outcome: what it found, or why it failed.
type Checks = Vec<(&'static str, Result<String, String>)>;

/// Every check of one file.
fn verify_file(file: &Path, given: &Given<'_>, keys: &[(String, KnownKey)]) -> anyhow::Result<Value> {
    let exported = read_exported(file)?;
    let previous = given.previous.map(read_exported).transpose()?;
    let document = &exported.signed.document;
    let mut checks: Checks = Vec::new();
    let signature = verify(&exported.signed, |id| {
        keys.iter().find(|(known, _)| known == id).map(|(_, key)| key.clone())
    });
    checks.push((
        "signature",
        signature.map(|_| "verified".to_owned()).map_err(|e| e.to_string()),
    ));
    checks.push((
        "proofVersion",
        check_proof_version(document)
            .map(|()| "5".to_owned())
            .map_err(|e| e.to_string()),
    ));
    let csv = lines_of(document, &exported, given.lines)?;
    checks.push(("linesSha256", lines_check(document, csv.as_deref())));
    match document.get("type").and_then(Value::as_str) {
        Some(STATEMENT_TYPE) => {
            let key = given.player_key.map(str::to_owned).or(exported.player_key.clone());
            statement_checks(document, csv.as_deref(), key.as_deref(), &mut checks);
        }
        Some(CORRECTION_TYPE) => {
            let amended = match given.amends {
                Some(path) => Some(read_exported(path)?.signed.document),
                None => previous
                    .as_ref()
                    .map(|before| before.signed.document.clone())
                    .filter(|before| before.get("sequence") == document.get("statementSequence")),
            };
            correction_checks(document, amended.as_ref(), &mut checks);
        }
        other => checks.push((
            "type",
            Err(format!(
                "{} is neither {STATEMENT_TYPE} nor {CORRECTION_TYPE}",
                other.unwrap_or("(none)")
            )),
        )),
    }
    checks.push(("chain", chain_check(document, previous.as_ref(), given.previous)));

    let failures: Vec<String> = checks
        .iter()
        .filter_map(|(name, outcome)| outcome.as_ref().err().map(|why| format!("{name}: {why}")))
        .collect();
    if !failures.is_empty() {
        bail!("{}", failures.join("\n"));
    }
    let link = ChainLink::of(document).map_err(|error| anyhow::anyhow!("chain: {error}"))?;
    let mut out = Map::new();
    out.insert("verified".into(), json!(true));
    out.insert("type".into(), json!(document.get("type")));
    out.insert("keyId".into(), json!(exported.signed.signature.key_id));
    out.insert("sequence".into(), json!(link.sequence));
    out.insert("documentHash".into(), json!(document_hash(document)?.to_string()));
    out.insert("amends".into(), json!(document.get("statementHash")));
    for (name, outcome) in checks {
        let name = if name == "linesSha256" { "lines" } else { name };
        out.insert(name.into(), json!(outcome.unwrap_or_default()));
    }
    Ok(Value::Object(out))
}

/// The ticket-lines CSV to check: `--lines`, else the export's; `None` when neither.
fn lines_of(document: &Value, exported: &Exported, lines: Option<&Path>) -> anyhow::Result<Option<Vec<u8>>> {
    if document.get("linesSha256").is_none() && document.get("type").and_then(Value::as_str) != Some(STATEMENT_TYPE) {
        return Ok(None);
    }
    Ok(match (lines, &exported.lines) {
        (Some(path), _) => Some(std::fs::read(path).with_context(|| format!("reading {}", path.display()))?),
        (None, Some(inside)) => Some(inside.clone().into_bytes()),
        (None, None) => None,
    })
}

/// The lines' SHA-256 against `linesSha256`.
fn lines_check(document: &Value, csv: Option<&[u8]>) -> Result<String, String> {
    match (document.get("linesSha256").and_then(Value::as_str), csv) {
        (None, _) if document.get("type").and_then(Value::as_str) == Some(STATEMENT_TYPE) => {
            Err("the statement names no linesSha256".into())
        }
        (None, _) => Ok("none named".into()),
        (Some(_), None) => Err(
            "the document names its ticket lines' hash; verify the export that carries them, or give the CSV with --lines"
                .into(),
        ),
        (Some(named), Some(csv)) => {
            let actual = hex::encode(Sha256::digest(csv));
            if actual == named {
                Ok("matches".into())
            } else {
                Err(format!("the ticket lines hash to {actual}, the statement names {named}"))
            }
        }
    }
}

/// A statement's lines read back: its root (with the player key) and its totals.
fn statement_checks(document: &Value, csv: Option<&[u8]>, key: Option<&str>, checks: &mut Checks) {
    let recomputed = match csv {
        None => Err("no ticket lines to recompute it from".to_owned()),
        Some(csv) => {
            let key = key.map(PlayerKey::from_hex).transpose();
            let bad_key = key.is_err();
            recompute_lines(csv, key.ok().flatten().as_ref())
                .map(|recomputed| (recomputed, bad_key))
                .map_err(|error| format!("the ticket lines cannot be read back: {error}"))
        }
    };
    let (recomputed, bad_key) = match recomputed {
        Ok(found) => found,
        Err(why) => {
            checks.push(("proof", Err(why.clone())));
            checks.push(("totals", Err(why)));
            return;
        }
    };
    let proof = match recomputed.tree {
        _ if bad_key => Err("the player key is not 64 hex digits".to_owned()),
        Some(tree) => check_tree(document, &tree)
            .map(|()| {
                format!(
                    "merkleRoot and leafCount ({}) recomputed from the lines",
                    tree.leaf_count
                )
            })
            .map_err(|e| e.to_string()),
        None => Ok("not checked (give the export's player key, or --player-key)".to_owned()),
    };
    checks.push(("proof", proof));
    let totals = check_totals(document, &recomputed.totals)
        .map(|()| "the lines sum to the signed totals and amount due".to_owned())
        .map_err(|e| e.to_string());
    checks.push(("totals", totals));
}

/// A correction's arithmetic and, given it, the statement it amends.
fn correction_checks(document: &Value, amended: Option<&Value>, checks: &mut Checks) {
    let arithmetic = check_correction_arithmetic(document)
        .map(|()| "amountDue is amountDueBefore moved by amountChange".to_owned())
        .map_err(|e| e.to_string());
    checks.push(("arithmetic", arithmetic));
    let amendment = match amended {
        Some(statement) => check_amends(document, statement)
            .map(|()| "names the amended statement and its tree".to_owned())
            .map_err(|e| e.to_string()),
        None => Ok("not checked (give the amended statement with --amends)".into()),
    };
    checks.push(("amendment", amendment));
}

/// The link to the previous document.
fn chain_check(document: &Value, previous: Option<&Exported>, path: Option<&Path>) -> Result<String, String> {
    let link = ChainLink::of(document).map_err(|error| error.to_string())?;
    match (previous, path) {
        (Some(before), Some(path)) => verify_link(document, Some(&before.signed.document))
            .map(|()| "follows the previous document".to_owned())
            .map_err(|error| format!("the document does not follow {}: {error}", path.display())),
        _ if link.sequence == 1 => verify_link(document, None)
            .map(|()| "first of the chain".to_owned())
            .map_err(|error| error.to_string()),
        _ => Ok("not checked (give the previous document with --previous)".into()),
    }
}
