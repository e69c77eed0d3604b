//! The service's own secrets: the session-signing secret, the data key that seals
//! signing secrets at rest and the statement signing key. Each comes from configuration,
//! or in development is a random one kept in the data directory, so that sessions, sealed
//! secrets and the statement key survive restarts.

use std::path::{Path, PathBuf};

use anyhow::Context;
use opinion_app::ports::Random;
use opinion_statement::StatementKey;

use crate::config::Config;
use crate::private_file::write_private_file;
use crate::startup::Keys;
use crate::system_ports::OsRandom;

/// The secret that signs staff session tokens.
pub fn session_secret(config: &Config) -> anyhow::Result<Vec<u8>> {
    configured_or_kept(
        config.session_secret.as_deref(),
        &config.data_dir.join("session-secret"),
    )
}

/// The key material that seals signing secrets at rest.
pub fn data_key(config: &Config) -> anyhow::Result<Vec<u8>> {
    configured_or_kept(config.data_key.as_deref(), &config.data_dir.join("data-key"))
}

/// The key that signs settlement statements: configured (64 hex digits), or in
/// development the one kept in the data directory (made on first use).
pub fn statement_key(config: &Config) -> anyhow::Result<StatementKey> {
    if let Some(configured) = &config.statement_signing_key {
        return StatementKey::from_hex(configured).context("OPINION_STATEMENT_SIGNING_KEY");
    }
    let path = statement_key_path(config);
    match std::fs::read_to_string(&path)
        .ok()
        .map(|text| StatementKey::from_hex(&text))
    {
        Some(Ok(key)) => Ok(key),
        _ => new_kept_statement_key(config),
    }
}

/// Makes a new random statement key and keeps it in the data directory in place of the
/// kept one (development's rotation).
pub fn new_kept_statement_key(config: &Config) -> anyhow::Result<StatementKey> {
    let key = StatementKey::from_seed(OsRandom.secret_bytes());
    write_private_file(&statement_key_path(config), key.to_hex().as_bytes())?;
    Ok(key)
}

fn statement_key_path(config: &Config) -> PathBuf {
    config.data_dir.join("statement-key")
}

/// All of them, for wiring the services.
pub fn keys(config: &Config) -> anyhow::Result<Keys> {
    Ok(Keys {
        session_secret: session_secret(config)?,
        data_key: data_key(config)?,
        data_key_previous: config.data_key_previous.as_ref().map(|key| key.as_bytes().to_vec()),
        statement_key: statement_key(config)?,
    })
}

fn configured_or_kept(configured: Option<&str>, path: &Path) -> anyhow::Result<Vec<u8>> {
    if let Some(secret) = configured {
        return Ok(secret.as_bytes().to_vec());
    }
    match std::fs::read(path) {
        Ok(secret) if secret.len() >= 32 => Ok(secret),
        _ => create_secret(path),
    }
}

fn create_secret(path: &Path) -> anyhow::Result<Vec<u8>> {
    let secret: Vec<u8> = [OsRandom.secret_bytes(), OsRandom.secret_bytes()].concat();
    write_private_file(path, &secret)?;
    Ok(secret)
}
