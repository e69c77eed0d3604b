//! A detached helper process that stops and deletes a throwaway cluster once its owner is gone,
//! however the owner ends (normal exit, panic, Ctrl-C or SIGKILL), so tests never leave servers behind.

use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};

use crate::DevDbError;
use crate::server::Server;

/// Waits until its stdin reaches end-of-file, which happens when the only writer (this process) closes
/// it or dies, then stops the server (`"$@"` is the pg_ctl command line) and removes the directory.
const SCRIPT: &str = r#"cat >/dev/null; "$@" >/dev/null 2>&1; rm -rf -- "$OPINION_DEVDB_REMOVE""#;

/// The running helper; dropping it triggers the clean-up and waits for it to finish.
#[derive(Debug)]
pub(crate) struct Watchdog {
    /// Write end of the helper's stdin. The kernel closes it when we exit, even on SIGKILL.
    lifeline: Option<ChildStdin>,
    /// The helper, waited for on drop so the clean-up is complete when the cluster is gone.
    helper: Child,
}

impl Watchdog {
    /// Spawns the helper for `server`, whose data directory it removes at the end. The helper gets its own process group so a Ctrl-C aimed at the tests does not kill
    /// it before it has cleaned up.
    pub(crate) fn spawn(server: &Server) -> Result<Watchdog, DevDbError> {
        let mut helper = Command::new("sh")
            .arg("-c")
            .arg(SCRIPT)
            .arg("opinion-devdb-watchdog")
            .args(server.run_as.argv(&server.binaries.pg_ctl()))
            .arg("stop")
            .arg("-D")
            .arg(&server.data_dir)
            .args(["-m", "immediate", "-w"])
            .env("OPINION_DEVDB_REMOVE", &server.data_dir)
            .current_dir("/")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(DevDbError::io("start the clean-up helper (sh)"))?;
        Ok(Watchdog {
            lifeline: helper.stdin.take(),
            helper,
        })
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.lifeline.take());
        if let Err(err) = self.helper.wait() {
            tracing::warn!(%err, "could not wait for the PostgreSQL clean-up helper");
        }
    }
}
