//! Starting and stopping the server of an initialised cluster with `pg_ctl`.

use std::path::{Path, PathBuf};

use crate::DevDbError;
use crate::binaries::Binaries;
use crate::error::{tail, tail_of};
use crate::port::free_port;
use crate::privilege::RunAs;

/// How many ports we try before giving up; another process can grab a port between our probe
/// and the server binding it, but not several times in a row.
const START_ATTEMPTS: usize = 5;

/// Seconds `pg_ctl` waits for the server to come up or go down.
const TIMEOUT_SECS: &str = "60";

/// Log file name inside the data directory.
pub(crate) const LOG_FILE: &str = "server.log";

/// The tools and identity needed to drive one cluster's server.
#[derive(Debug, Clone)]
pub(crate) struct Server {
    /// The installation whose `pg_ctl` we run.
    pub(crate) binaries: Binaries,
    /// Which OS user runs it.
    pub(crate) run_as: RunAs,
    /// The cluster's data directory.
    pub(crate) data_dir: PathBuf,
}

impl Server {
    /// Starts the server on a free loopback port and returns that port, retrying on another port
    /// when the chosen one was taken in the meantime.
    pub(crate) fn start(&self) -> Result<u16, DevDbError> {
        self.start_on_first_free(free_port)
    }

    /// [`Server::start`] with the source of candidate ports passed in, so the retry can be tested.
    fn start_on_first_free(&self, mut next_port: impl FnMut() -> Result<u16, DevDbError>) -> Result<u16, DevDbError> {
        let log = self.data_dir.join(LOG_FILE);
        let mut attempt = 1;
        loop {
            let port = next_port()?;
            let logged_before = std::fs::metadata(&log).map_or(0, |meta| meta.len());
            let output = self
                .pg_ctl("start")
                .arg("-l")
                .arg(&log)
                .arg("-o")
                .arg(format!("-p {port}"))
                .output()
                .map_err(DevDbError::io("run pg_ctl start"))?;
            if output.status.success() {
                tracing::info!(
                    data_dir = %self.data_dir.display(),
                    "started PostgreSQL on 127.0.0.1:{port}"
                );
                return Ok(port);
            }
            let new_log = read_from(&log, logged_before);
            if new_log.contains("Address already in use") && attempt < START_ATTEMPTS {
                tracing::debug!(port, "port was taken before PostgreSQL could bind it, retrying");
                attempt += 1;
                continue;
            }
            return Err(DevDbError::Start {
                dir: self.data_dir.clone(),
                log: tail(&format!("{}\n{new_log}", tail_of(&output))),
            });
        }
    }

    /// Stops the server with a fast shutdown (disconnects clients, no crash recovery needed next time).
    pub(crate) fn stop(&self) -> Result<(), DevDbError> {
        let output = self
            .pg_ctl("stop")
            .args(["-m", "fast"])
            .output()
            .map_err(DevDbError::io("run pg_ctl stop"))?;
        if !output.status.success() {
            return Err(DevDbError::Stop {
                dir: self.data_dir.clone(),
                output: tail_of(&output),
            });
        }
        tracing::info!(data_dir = %self.data_dir.display(), "stopped PostgreSQL");
        Ok(())
    }

    /// `pg_ctl <action>` on this data directory, waiting for it to finish.
    fn pg_ctl(&self, action: &str) -> std::process::Command {
        let mut command = self.run_as.command(&self.binaries.pg_ctl());
        command
            .arg(action)
            .arg("-D")
            .arg(&self.data_dir)
            .args(["-w", "-t", TIMEOUT_SECS]);
        command
    }
}

/// What was appended to the log since it was `offset` bytes long, so a retry only looks at its own attempt.
fn read_from(log: &Path, offset: u64) -> String {
    let bytes = std::fs::read(log).unwrap_or_default();
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(bytes.len());
    String::from_utf8_lossy(&bytes[start..]).into_owned()
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, TcpListener};
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::init::{Durability, initdb};

    #[test]
    fn a_port_taken_in_the_meantime_is_replaced_by_another() {
        let parent = tempfile::tempdir().unwrap();
        std::fs::set_permissions(parent.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let server = Server {
            binaries: Binaries::locate().unwrap(),
            run_as: RunAs::detect().unwrap(),
            data_dir: parent.path().join("pg"),
        };
        std::fs::create_dir(&server.data_dir).unwrap();
        server.run_as.hand_over(&server.data_dir).unwrap();
        initdb(
            &server.binaries,
            &server.run_as,
            &server.data_dir,
            Durability::Throwaway,
        )
        .unwrap();

        let squatter = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let taken = squatter.local_addr().unwrap().port();
        let mut candidates = vec![free_port().unwrap(), taken];
        let port = server.start_on_first_free(|| Ok(candidates.pop().unwrap())).unwrap();
        server.stop().unwrap();
        assert_ne!(port, taken);
        assert!(candidates.is_empty());
    }
}
