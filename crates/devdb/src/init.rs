//! Creating a cluster with `initdb` and the settings that keep it private to this machine.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::DevDbError;
use crate::binaries::Binaries;
use crate::error::tail_of;
use crate::privilege::RunAs;

/// Whether the cluster's data must survive a crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Durability {
    /// A developer's database, kept across runs.
    Durable,
    /// A test database deleted at exit: durability is traded for speed.
    Throwaway,
}

/// Runs `initdb` into the empty directory `dir` and appends our settings to `postgresql.conf`.
pub(crate) fn initdb(
    binaries: &Binaries,
    run_as: &RunAs,
    dir: &Path,
    durability: Durability,
) -> Result<(), DevDbError> {
    let mut command = run_as.command(&binaries.initdb());
    command
        .arg("-D")
        .arg(dir)
        .args(["-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C"]);
    if durability == Durability::Throwaway {
        command.arg("--no-sync");
    }
    let output = command.output().map_err(DevDbError::io("run initdb"))?;
    if !output.status.success() {
        return Err(DevDbError::InitDb {
            dir: dir.to_path_buf(),
            output: tail_of(&output),
        });
    }
    append_settings(dir, &settings(durability))
}

/// Appends `lines` to the `postgresql.conf` of the cluster in `dir`.
pub(crate) fn append_settings(dir: &Path, lines: &str) -> Result<(), DevDbError> {
    let conf = dir.join("postgresql.conf");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&conf)
        .and_then(|mut file| file.write_all(lines.as_bytes()))
        .map_err(DevDbError::io(format!("append settings to {}", conf.display())))
}

/// Initialises `data_dir` for a persistent cluster unless it already holds one; returns whether it did.
/// initdb works in a sibling directory that is renamed into place only when complete, so an interrupted
/// first run never leaves a half-made cluster behind.
pub(crate) fn ensure_persistent(binaries: &Binaries, run_as: &RunAs, data_dir: &Path) -> Result<bool, DevDbError> {
    if data_dir.join("PG_VERSION").is_file() {
        return Ok(false);
    }
    let is_empty = std::fs::read_dir(data_dir).map_or(true, |mut entries| entries.next().is_none());
    if !is_empty {
        return Err(DevDbError::NotADataDir(data_dir.to_path_buf()));
    }
    let staging = staging_dir(data_dir);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .map_err(DevDbError::io(format!("remove the leftover {}", staging.display())))?;
    }
    std::fs::create_dir(&staging).map_err(DevDbError::io(format!("create {}", staging.display())))?;
    let built = run_as
        .hand_over(&staging)
        .and_then(|()| initdb(binaries, run_as, &staging, Durability::Durable));
    if let Err(err) = built {
        // Best effort: the next run removes a leftover anyway.
        let _ = std::fs::remove_dir_all(&staging);
        return Err(err);
    }
    std::fs::rename(&staging, data_dir).map_err(DevDbError::io(format!(
        "move the new cluster from {} to {}",
        staging.display(),
        data_dir.display()
    )))?;
    Ok(true)
}

/// Where initdb works before the result is moved to `data_dir`.
fn staging_dir(data_dir: &Path) -> PathBuf {
    let mut name = data_dir.file_name().unwrap_or_default().to_os_string();
    name.push(".initdb");
    data_dir.with_file_name(name)
}

/// Settings appended to `postgresql.conf`: loopback TCP only, no unix socket (so nothing needs
/// /var/run/postgresql and long paths cannot break it), and room for the many pools tests open.
fn settings(durability: Durability) -> String {
    let mut text = String::from(
        "\n# Added by opinion-devdb\n\
         listen_addresses = '127.0.0.1'\n\
         unix_socket_directories = ''\n\
         max_connections = 300\n",
    );
    if durability == Durability::Throwaway {
        text.push_str("fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_throwaway_clusters_give_up_durability() {
        assert!(!settings(Durability::Durable).contains("fsync"));
        let fast = settings(Durability::Throwaway);
        assert!(fast.contains("fsync = off") && fast.contains("full_page_writes = off"));
    }

    #[test]
    fn staging_is_a_sibling() {
        assert_eq!(
            staging_dir(Path::new("/work/.data/pg")),
            Path::new("/work/.data/pg.initdb")
        );
    }
}
