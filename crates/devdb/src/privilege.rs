//! Which OS user the PostgreSQL programs run as: they refuse to run as root, so when we are root
//! (containers, CI) the cluster is handed to the `postgres` OS user instead.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

use crate::DevDbError;

/// The account PostgreSQL runs under when we are root.
const SERVER_USER: &str = "postgres";

/// How to run the PostgreSQL programs from this process.
#[derive(Debug, Clone)]
pub(crate) enum RunAs {
    /// We are not root: run them directly, as ourselves.
    CurrentUser,
    /// We are root: run them through `runuser` as `postgres`, which must own the data directory.
    ServerUser {
        /// User id of `postgres`, to give it the directories we create.
        uid: u32,
        /// Primary group id of `postgres`.
        gid: u32,
    },
}

impl RunAs {
    /// Decides from our effective user id; as root the `postgres` account has to exist.
    pub(crate) fn detect() -> Result<RunAs, DevDbError> {
        if id(&["-u"])? != Some(0) {
            return Ok(RunAs::CurrentUser);
        }
        let uid = id(&["-u", SERVER_USER])?.ok_or(DevDbError::NoPostgresUser)?;
        let gid = id(&["-g", SERVER_USER])?.ok_or(DevDbError::NoPostgresUser)?;
        Ok(RunAs::ServerUser { uid, gid })
    }

    /// The argument vector that runs `program` as the right user, for callers that build a shell
    /// command line rather than a [`Command`].
    pub(crate) fn argv(&self, program: &Path) -> Vec<OsString> {
        match self {
            RunAs::CurrentUser => vec![program.into()],
            RunAs::ServerUser { .. } => vec![
                "runuser".into(),
                "-u".into(),
                SERVER_USER.into(),
                "--".into(),
                program.into(),
            ],
        }
    }

    /// A [`Command`] that runs `program` as the right user. It starts in `/` because `postgres` may
    /// not be allowed into our working directory.
    pub(crate) fn command(&self, program: &Path) -> Command {
        let argv = self.argv(program);
        let mut command = Command::new(&argv[0]);
        command.args(&argv[1..]).current_dir("/");
        command
    }

    /// Gives a directory we created to the server's user so initdb and the server can write to it.
    pub(crate) fn hand_over(&self, dir: &Path) -> Result<(), DevDbError> {
        match self {
            RunAs::CurrentUser => Ok(()),
            RunAs::ServerUser { uid, gid } => std::os::unix::fs::chown(dir, Some(*uid), Some(*gid)).map_err(
                DevDbError::io(format!("give {} to the `postgres` OS user", dir.display())),
            ),
        }
    }

    /// Fails early, with advice, when the server's user could not get into `dir` (it or a parent is not
    /// traversable), instead of letting initdb or the server print a bare "permission denied".
    pub(crate) fn check_reachable(&self, dir: &Path) -> Result<(), DevDbError> {
        if let RunAs::CurrentUser = self {
            return Ok(());
        }
        let status = self
            .command(Path::new("test"))
            .arg("-x")
            .arg(dir)
            .status()
            .map_err(DevDbError::io("run runuser"))?;
        if status.success() {
            Ok(())
        } else {
            Err(DevDbError::Unreachable(dir.to_path_buf()))
        }
    }
}

/// Runs `id` with `args`; `None` when it reports the user does not exist.
fn id(args: &[&str]) -> Result<Option<u32>, DevDbError> {
    let output = Command::new("id")
        .args(args)
        .output()
        .map_err(DevDbError::io("run `id`"))?;
    if !output.status.success() {
        return Ok(None);
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().parse().ok())
}
