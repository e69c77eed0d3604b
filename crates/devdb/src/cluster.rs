//! The public handle on a running cluster, for development (`start_persistent`), tests
//! (`start_ephemeral`) and measurements (`start_scratch`).

use std::path::{Path, PathBuf};

use crate::DevDbError;
use crate::binaries::Binaries;
use crate::init::{Durability, append_settings, ensure_persistent, initdb};
use crate::pidfile::PidFile;
use crate::port::accepts_connections;
use crate::privilege::RunAs;
use crate::server::{LOG_FILE, Server};
use crate::tls::{self, ServerTls};
use crate::watchdog::Watchdog;

/// A running PostgreSQL cluster on 127.0.0.1 reachable as superuser `postgres` without a password
/// (trust auth on loopback only).
#[derive(Debug)]
pub struct Cluster {
    /// The cluster's data directory (also holds `server.log`).
    data_dir: PathBuf,
    /// The TCP port it listens on.
    port: u16,
    /// How to stop it; `None` when we attached to a server another process started.
    started: Option<Server>,
    /// For an ephemeral or scratch cluster, the helper that stops and deletes it once we are gone.
    _watchdog: Option<Watchdog>,
}

impl Cluster {
    /// Starts `server` and owns it (and its clean-up helper, for a throwaway cluster).
    fn start(server: Server, watchdog: Option<Watchdog>) -> Result<Cluster, DevDbError> {
        let port = server.start()?;
        Ok(Cluster {
            data_dir: server.data_dir.clone(),
            port,
            started: Some(server),
            _watchdog: watchdog,
        })
    }

    /// Development cluster kept in `data_dir` (e.g. `./.data/pg`) across runs: initdb on first use,
    /// start it, or attach to it if it is already running, in which case [`Cluster::stop`] leaves it
    /// running because this process does not own it. A stale `postmaster.pid` does not prevent a start.
    pub fn start_persistent(data_dir: &Path) -> Result<Cluster, DevDbError> {
        let data_dir =
            std::path::absolute(data_dir).map_err(DevDbError::io(format!("resolve {}", data_dir.display())))?;
        match PidFile::read(&data_dir) {
            Some(pid) if pid.process_alive() && accepts_connections(pid.port) => {
                tracing::info!(
                    "attached to the running cluster in {} on 127.0.0.1:{}",
                    data_dir.display(),
                    pid.port
                );
                return Ok(Cluster {
                    data_dir,
                    port: pid.port,
                    started: None,
                    _watchdog: None,
                });
            }
            // Still starting up: leave its lock alone and let our start report the conflict.
            Some(pid) if pid.process_alive() && pid.starting => {}
            _ => PidFile::remove_stale(&data_dir).map_err(DevDbError::io(format!(
                "remove the stale postmaster.pid in {}",
                data_dir.display()
            )))?,
        }
        let server = Server {
            binaries: Binaries::locate()?,
            run_as: RunAs::detect()?,
            data_dir,
        };
        if let Some(parent) = server.data_dir.parent() {
            std::fs::create_dir_all(parent).map_err(DevDbError::io(format!("create {}", parent.display())))?;
            server.run_as.check_reachable(parent)?;
        }
        if ensure_persistent(&server.binaries, &server.run_as, &server.data_dir)? {
            tracing::info!("initialised a new PostgreSQL cluster in {}", server.data_dir.display());
        }
        Self::start(server, None)
    }

    /// Throwaway cluster for tests in a fresh temporary directory, tuned for speed (no fsync, no full
    /// page writes). It is stopped and deleted when this `Cluster` is dropped or the process exits,
    /// however it exits (even SIGKILL), by a detached helper process, so nothing is left behind.
    pub fn start_ephemeral() -> Result<Cluster, DevDbError> {
        Self::start_ephemeral_with(None)
    }

    /// [`Cluster::start_ephemeral`] with TLS on (`ssl = on`) under `tls`, for tests of
    /// encrypted connections; plain connections are still accepted.
    pub fn start_ephemeral_tls(tls: &ServerTls) -> Result<Cluster, DevDbError> {
        Self::start_ephemeral_with(Some(tls))
    }

    /// A throwaway cluster, with TLS under `tls` when given.
    fn start_ephemeral_with(tls: Option<&ServerTls>) -> Result<Cluster, DevDbError> {
        let binaries = Binaries::locate()?;
        let run_as = RunAs::detect()?;
        let mut temp = tempfile::Builder::new()
            .prefix("opinion-pg-")
            .tempdir()
            .map_err(DevDbError::io("create a temporary directory"))?;
        let server = Server {
            binaries,
            run_as,
            data_dir: temp.path().to_path_buf(),
        };
        let watchdog = Watchdog::spawn(&server)?;
        // From here on the watchdog deletes the directory, also when we return an error below.
        temp.disable_cleanup(true);
        server.run_as.hand_over(&server.data_dir)?;
        server.run_as.check_reachable(&server.data_dir)?;
        initdb(
            &server.binaries,
            &server.run_as,
            &server.data_dir,
            Durability::Throwaway,
        )?;
        if let Some(tls) = tls {
            tls::enable(tls, &server.run_as, &server.data_dir)?;
        }
        tracing::info!("initialised a new PostgreSQL cluster in {}", server.data_dir.display());
        Self::start(server, Some(watchdog))
    }

    /// A durable cluster made afresh in `data_dir` (which must not exist or be empty) for one
    /// run of a measurement, with `extra_settings` appended to its `postgresql.conf`. Its
    /// figures are a real database's (unlike [`Cluster::start_ephemeral`], it keeps fsync
    /// and full page writes), and like an ephemeral cluster it is stopped and deleted once
    /// this process is gone, however it ends, so a killed run leaves no server behind.
    pub fn start_scratch(data_dir: &Path, extra_settings: &str) -> Result<Cluster, DevDbError> {
        let data_dir =
            std::path::absolute(data_dir).map_err(DevDbError::io(format!("resolve {}", data_dir.display())))?;
        if std::fs::read_dir(&data_dir).is_ok_and(|mut entries| entries.next().is_some()) {
            return Err(DevDbError::NotADataDir(data_dir));
        }
        std::fs::create_dir_all(&data_dir).map_err(DevDbError::io(format!("create {}", data_dir.display())))?;
        let server = Server {
            binaries: Binaries::locate()?,
            run_as: RunAs::detect()?,
            data_dir,
        };
        let watchdog = Watchdog::spawn(&server)?;
        server.run_as.hand_over(&server.data_dir)?;
        server.run_as.check_reachable(&server.data_dir)?;
        initdb(&server.binaries, &server.run_as, &server.data_dir, Durability::Durable)?;
        append_settings(&server.data_dir, extra_settings)?;
        tracing::info!(
            "initialised a scratch PostgreSQL cluster in {}",
            server.data_dir.display()
        );
        Self::start(server, Some(watchdog))
    }

    /// TCP port the cluster listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The cluster's data directory, where `server.log` explains any server-side trouble.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The server's log in the data directory: what a failed run keeps of a scratch
    /// cluster, which goes with its directory.
    pub fn log_file(&self) -> PathBuf {
        self.data_dir.join(LOG_FILE)
    }

    /// Connection URL for one database: `postgres://postgres@127.0.0.1:{port}/{database}`. The name is
    /// used as given, so it must not need percent-encoding.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// Stops the cluster (`pg_ctl stop -m fast`) if this process started it; a no-op for an attached
    /// cluster or one that is already stopped.
    pub fn stop(&self) -> Result<(), DevDbError> {
        match &self.started {
            Some(server) if PidFile::read(&self.data_dir).is_some() => server.stop(),
            _ => Ok(()),
        }
    }
}
