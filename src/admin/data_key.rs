//! `opinion admin data-key …`: how the sealed values stand against the configured data
//! keys, and the rotation that re-seals them all under `OPINION_DATA_KEY`. It works on
//! the store directly (after migrating it), in batches that each commit on their own, so
//! an interrupted rotation is finished by running it again.

use anyhow::{Context, bail};
use opinion_store_pg::{PgStore, ResealCursor, SealingStatus};
use serde_json::{Value, json};

use crate::cli::DataKeyCommand;
use crate::config::Config;
use crate::database;
use crate::startup::{self, Keys};

/// Connections the command uses: it works one batch at a time.
const CONNECTIONS: usize = 2;

/// Runs one data-key command over the database at `database_url` (with the TLS the
/// configuration asks for) and returns what to print.
pub async fn run(config: &Config, database_url: &str, keys: &Keys, command: DataKeyCommand) -> anyhow::Result<Value> {
    let target = database::target(config, database_url)?;
    opinion_store_pg::run_migrations_on(&target)
        .await
        .context("migrating the database")?;
    let store = PgStore::connect_to(&target, CONNECTIONS.min(config.database_max_connections.max(1)))
        .await
        .context("connecting to the database")?
        .with_data_key(startup::data_key(keys)?);
    match command {
        DataKeyCommand::Status => Ok(status_json(&store.sealing_status().await?)),
        DataKeyCommand::Rotate {
            batch_size,
            max_batches,
        } => rotate(&store, batch_size, max_batches).await,
    }
}

/// Seals clear webhook secrets, then re-seals every column, until done or `max_batches`.
async fn rotate(store: &PgStore, batch_size: u32, max_batches: Option<u32>) -> anyhow::Result<Value> {
    let allowed = |batches: u32| max_batches.is_none_or(|max| batches < max);
    let (mut batches, mut sealed_from_clear, mut resealed, mut unopenable) = (0, 0, 0, 0);
    while allowed(batches) {
        let sealed = store.seal_clear_webhook_secrets(batch_size).await?;
        if sealed == 0 {
            break;
        }
        batches += 1;
        sealed_from_clear += sealed;
    }
    let mut cursor = ResealCursor::default();
    while allowed(batches) {
        let Some(batch) = store.reseal_next(&mut cursor, batch_size).await? else {
            break;
        };
        batches += 1;
        resealed += batch.resealed;
        unopenable += batch.unopenable;
        tracing::info!(
            table = batch.table,
            column = batch.column,
            resealed = batch.resealed,
            unopenable = batch.unopenable,
            "re-sealed a batch"
        );
    }
    let status = store.sealing_status().await?;
    if unopenable > 0 {
        bail!(
            "{unopenable} sealed values open with neither OPINION_DATA_KEY nor OPINION_DATA_KEY_PREVIOUS \
             (the log names their rows); {} values are not sealed by the current key",
            status.remaining()
        );
    }
    Ok(json!({
        "keyId": status.key_id,
        "previousKeyId": status.previous_key_id,
        "batches": batches,
        "sealedFromClear": sealed_from_clear,
        "resealed": resealed,
        "remaining": status.remaining(),
        "complete": status.remaining() == 0,
    }))
}

fn status_json(status: &SealingStatus) -> Value {
    let columns: Vec<Value> = status
        .columns
        .iter()
        .map(|column| {
            json!({
                "table": column.table,
                "column": column.column,
                "underCurrentKey": column.under_current_key,
                "underPreviousKey": column.under_previous_key,
                "withoutKeyId": column.without_key_id,
                "underOtherKeys": column.under_other_keys,
            })
        })
        .collect();
    json!({
        "keyId": status.key_id,
        "previousKeyId": status.previous_key_id,
        "columns": columns,
        "clearWebhookSecrets": status.clear_webhook_secrets,
        "remaining": status.remaining(),
    })
}
