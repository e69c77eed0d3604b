//! `opinion admin statement verify FILE`: checks a signed document of the flight back
//! office (a settlement statement or a correction) as an operator would: its Ed25519
//! signature under a published key (the database's keys, or the well-known JSON given
//! with `--keys`), the retired-key rule, the SHA-256 of its ticket lines when the
//! document names `linesSha256` (the CSV inside an export, or `--lines`), and its link to
//! the previous document of the chain (`--previous`). It reads only `keyId`, `issuedAt`,
//! `linesSha256`, `sequence` and `previousHash` of the document, so fields added to a
//! document's body later verify unchanged. Every failure names the check that failed.

use std::path::Path;

use anyhow::{Context, bail};
use opinion_app::flight::office::FlightOffice;
use opinion_statement::{ChainLink, KnownKey, PublicKey, SignedDocument, verify, verify_link};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::admin::rfc3339;
use crate::cli::StatementCommand;

/// A signed document and the ticket lines that came with it.
struct Exported {
    signed: SignedDocument,
    lines: Option<String>,
}

/// Reads a signed document (`{"document", "signature"}`), an export (`{"statement",
/// "lines"}`) or a report's detail (`{…, "statement"}`).
fn read_exported(path: &Path) -> anyhow::Result<Exported> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let value: Value = serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let (signed, lines) = match value.get("statement") {
        Some(statement) if statement.is_object() => (
            statement.clone(),
            value.get("lines").and_then(Value::as_str).map(str::to_owned),
        ),
        _ => (value, None),
    };
    let signed: SignedDocument = serde_json::from_value(signed).with_context(|| {
        format!(
            "{} holds no signed document ({{\"document\", \"signature\"}}) nor an export of one",
            path.display()
        )
    })?;
    Ok(Exported { signed, lines })
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
/// verify is an error naming the check that failed.
pub async fn run(office: &FlightOffice, command: StatementCommand) -> anyhow::Result<Value> {
    let StatementCommand::Verify {
        file,
        previous,
        keys,
        lines,
    } = command;
    let keys = match &keys {
        Some(path) => keys_of_file(path)?,
        None => keys_of_database(office).await?,
    };
    verify_file(&file, previous.as_deref(), lines.as_deref(), &keys)
}

/// Every check of one file.
fn verify_file(
    file: &Path,
    previous: Option<&Path>,
    lines: Option<&Path>,
    keys: &[(String, KnownKey)],
) -> anyhow::Result<Value> {
    let exported = read_exported(file)?;
    let document = &exported.signed.document;
    let hash = verify(&exported.signed, |id| {
        keys.iter().find(|(known, _)| known == id).map(|(_, key)| key.clone())
    })
    .map_err(|error| anyhow::anyhow!("signature: {error}"))?;

    let lines_check = match document.get("linesSha256").and_then(Value::as_str) {
        None => "none named",
        Some(named) => {
            let csv = match (lines, exported.lines) {
                (Some(path), _) => std::fs::read(path).with_context(|| format!("reading {}", path.display()))?,
                (None, Some(inside)) => inside.into_bytes(),
                (None, None) => bail!(
                    "linesSha256: the document names its ticket lines' hash; verify the export that carries them, or give the CSV with --lines"
                ),
            };
            let actual = hex::encode(Sha256::digest(&csv));
            if actual != named {
                bail!("linesSha256: the ticket lines hash to {actual}, the statement names {named}");
            }
            "matches"
        }
    };

    let link = ChainLink::of(document).map_err(|error| anyhow::anyhow!("chain: {error}"))?;
    let chain_check = match previous {
        Some(path) => {
            let before = read_exported(path)?;
            verify_link(document, Some(&before.signed.document))
                .map_err(|error| anyhow::anyhow!("chain: the document does not follow {}: {error}", path.display()))?;
            "follows the previous document"
        }
        None if link.sequence == 1 => {
            verify_link(document, None).map_err(|error| anyhow::anyhow!("chain: {error}"))?;
            "first of the chain"
        }
        None => "not checked (give the previous document with --previous)",
    };
    Ok(json!({
        "verified": true,
        "type": document.get("type"),
        "keyId": exported.signed.signature.key_id,
        "sequence": link.sequence,
        "documentHash": hash.to_string(),
        "lines": lines_check,
        "chain": chain_check,
    }))
}
