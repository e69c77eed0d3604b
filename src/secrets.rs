//! The session-signing secret: from configuration, or in development a random one kept
//! in the data directory so that sessions survive restarts.

use std::path::Path;

use opinion_app::ports::Random;

use crate::config::Config;
use crate::private_file::write_private_file;
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
    let secret: Vec<u8> = [OsRandom.secret_bytes(), OsRandom.secret_bytes()].concat();
    write_private_file(path, &secret)?;
    Ok(secret)
}
