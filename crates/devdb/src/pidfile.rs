//! Reading `postmaster.pid`, which tells whether a cluster is already running and on which port,
//! so a second `cargo run` can attach to it instead of failing.

use std::path::Path;
use std::process::{Command, Stdio};

/// The file the postmaster writes into its data directory while it runs.
const FILE_NAME: &str = "postmaster.pid";

/// What a postmaster records about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PidFile {
    /// Process id of the postmaster (line 1).
    pub(crate) pid: u32,
    /// TCP port it listens on (line 4).
    pub(crate) port: u16,
    /// Whether it said it was still starting up (line 8), when it cannot accept connections yet.
    pub(crate) starting: bool,
}

impl PidFile {
    /// Reads the file in `data_dir`; `None` when it is missing or unreadable, which both mean
    /// "nothing we can attach to".
    pub(crate) fn read(data_dir: &Path) -> Option<PidFile> {
        let text = std::fs::read_to_string(data_dir.join(FILE_NAME)).ok()?;
        PidFile::parse(&text)
    }

    /// Parses the file's contents; the layout is fixed by PostgreSQL (pid, data dir, start time, port,
    /// socket dir, listen address, shared memory key, status). A negative pid (a single-user backend)
    /// yields `None` because there is no server to connect to.
    pub(crate) fn parse(text: &str) -> Option<PidFile> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let pid = lines.first()?.parse().ok()?;
        let port = lines.get(3)?.parse().ok()?;
        let starting = lines.get(7) == Some(&"starting");
        Some(PidFile { pid, port, starting })
    }

    /// Deletes a leftover file from a server that is gone, so it cannot block the next start.
    pub(crate) fn remove_stale(data_dir: &Path) -> std::io::Result<()> {
        match std::fs::remove_file(data_dir.join(FILE_NAME)) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(err),
            _ => Ok(()),
        }
    }

    /// Whether the recorded process still exists (`kill -0`). A pid reused by another user's process
    /// reads as dead, which is right: it cannot be our server.
    pub(crate) fn process_alive(&self) -> bool {
        Command::new("kill")
            .arg("-0")
            .arg(self.pid.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    }
}

#[cfg(test)]
mod tests {
    use super::PidFile;

    const READY: &str = "4242\n/work/.data/pg\n1716200000\n54321\n\n127.0.0.1\n  1234567    98304\nready   \n";

    #[test]
    fn reads_pid_port_and_status() {
        assert_eq!(
            PidFile::parse(READY),
            Some(PidFile {
                pid: 4242,
                port: 54321,
                starting: false,
            })
        );
        let starting = READY.replace("ready   ", "starting");
        assert!(PidFile::parse(&starting).unwrap().starting);
    }

    #[test]
    fn incomplete_or_garbled_files_are_ignored() {
        assert_eq!(PidFile::parse(""), None);
        assert_eq!(PidFile::parse("4242\n/work/.data/pg\n"), None);
        assert_eq!(PidFile::parse("abc\nx\ny\n5432\n"), None);
        assert_eq!(PidFile::parse("4242\nx\ny\nport\n"), None);
    }

    #[test]
    fn single_user_backend_is_not_attachable() {
        assert_eq!(PidFile::parse("-4242\nx\ny\n5432\n"), None);
    }

    #[test]
    fn our_own_process_is_alive() {
        let me = PidFile {
            pid: std::process::id(),
            port: 1,
            starting: false,
        };
        assert!(me.process_alive());
    }

    #[test]
    fn a_missing_file_is_nothing_to_attach_to() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(PidFile::read(dir.path()), None);
        PidFile::remove_stale(dir.path()).unwrap();
    }
}
