//! The service's own secrets: the session-signing secret and the data key that seals
//! signing secrets at rest. Each comes from configuration, or in development is a random
//! one kept in the data directory, so that sessions and sealed secrets survive restarts.

use std::path::Path;

use opinion_app::ports::Random;

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

/// Both, for wiring the services.
pub fn keys(config: &Config) -> anyhow::Result<Keys> {
    Ok(Keys {
        session_secret: session_secret(config)?,
        data_key: data_key(config)?,
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
