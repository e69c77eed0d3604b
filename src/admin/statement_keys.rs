//! `opinion admin statement-keys …`: rotating the platform's statement signing key and
//! listing the keys. Only public halves are stored; a new key's seed comes from a file,
//! the configuration, or (development) is made here and kept in the data directory.

use anyhow::{Context, bail};
use opinion_app::flight::office::FlightOffice;
use opinion_app::flight::office::model::StatementKeyRecord;
use opinion_statement::StatementKey;
use serde_json::{Value, json};

use crate::admin::rfc3339;
use crate::cli::StatementKeysCommand;
use crate::config::{Config, Environment};
use crate::secrets::new_kept_statement_key;

/// Runs one statement-keys command and returns what to print.
pub async fn run(config: &Config, office: &FlightOffice, command: StatementKeysCommand) -> anyhow::Result<Value> {
    match command {
        StatementKeysCommand::Rotate { key_file } => {
            let key = match key_file {
                Some(path) => {
                    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
                    StatementKey::from_hex(&text).with_context(|| format!("the key in {}", path.display()))?
                }
                None if config.statement_signing_key.is_some() => crate::secrets::statement_key(config)?,
                None if config.env == Environment::Development => new_kept_statement_key(config)?,
                None => bail!("give the new key with --key-file or OPINION_STATEMENT_SIGNING_KEY"),
            };
            let rotation = office.rotate_statement_key(&key).await?;
            Ok(json!({
                "current": key_json(&rotation.current),
                "retired": rotation.retired.as_ref().map(key_json),
            }))
        }
        StatementKeysCommand::List => {
            let keys = office.statement_keys().await?;
            Ok(json!({ "keys": keys.iter().map(key_json).collect::<Vec<_>>() }))
        }
    }
}

fn key_json(record: &StatementKeyRecord) -> Value {
    json!({
        "keyId": record.key_id.to_string(),
        "algorithm": "Ed25519",
        "publicKey": record.public_key.to_hex(),
        "createdAt": rfc3339(record.created_at),
        "retiredAt": record.retired_at.map(rfc3339),
    })
}
