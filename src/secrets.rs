//! The session-signing secret: from configuration, or in development a random one kept
//! in the data directory so that sessions survive restarts.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use anyhow::Context;
use opinion_app::ports::Random;

use crate::config::Config;
use crate::system_ports::OsRandom;

/// The secret that signs staff session tokens.
pub fn session_secret(config: &Config) -> anyhow::Result<Vec<u8>> {
    if let Some(secret) = &config.session_secret {
        return Ok(secret.as_bytes().to_vec());
    }
    let path = config.data_dir.join("session-secret");
    match std::fs::read(&path) {
        Ok(secret) if secret.len() >= 32 => Ok(secret),
        _ => create_secret(&path),
    }
}

fn create_secret(path: &Path) -> anyhow::Result<Vec<u8>> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    let secret: Vec<u8> = [OsRandom.secret_bytes(), OsRandom.secret_bytes()].concat();
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    file.write_all(&secret)?;
    Ok(secret)
}
