//! Why a development or test cluster could not be provided, phrased so the reader knows what to do.

use std::path::PathBuf;

/// Everything that can stop `opinion-devdb` from handing out a running cluster; each message is one
/// sentence that says what went wrong and how to get going again.
#[derive(Debug, thiserror::Error)]
pub enum DevDbError {
    /// No usable PostgreSQL installation was found in any of the places we look.
    #[error(
        "PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found: install PostgreSQL 15+ \
         (Debian: apt-get install postgresql), set OPINION_PG_BIN to their directory, or set DATABASE_URL"
    )]
    BinariesNotFound,

    /// `OPINION_PG_BIN` was set explicitly, so silently using another installation would be surprising.
    #[error(
        "OPINION_PG_BIN is {0} but that directory does not contain initdb, pg_ctl and postgres: \
         point it at PostgreSQL's bin directory or unset it"
    )]
    BadBinDir(PathBuf),

    /// PostgreSQL refuses to run as root and we need an unprivileged account to hand it to.
    #[error("running as root but there is no `postgres` OS user to run PostgreSQL as: create one or set DATABASE_URL")]
    NoPostgresUser,

    /// When running as root the server runs as `postgres`, which must be able to reach its data directory.
    #[error(
        "the `postgres` OS user cannot reach {0}: make it and its parent directories traversable \
         (chmod o+x) or choose a data directory elsewhere"
    )]
    Unreachable(PathBuf),

    /// We only initialise empty directories so we never clobber someone else's files.
    #[error("{0} is neither empty nor a PostgreSQL data directory: remove it or choose another data directory")]
    NotADataDir(PathBuf),

    /// A file-system operation or a helper program failed outright.
    #[error("could not {action}: {source}")]
    Io {
        /// What we were doing, e.g. "create /tmp/x".
        action: String,
        /// The underlying operating-system error.
        source: std::io::Error,
    },

    /// `initdb` exited with an error; its own output explains why.
    #[error("initdb could not create a cluster in {dir}: {output}")]
    InitDb {
        /// The directory that was being initialised.
        dir: PathBuf,
        /// The last lines initdb printed.
        output: String,
    },

    /// The server did not come up; its log says why.
    #[error("PostgreSQL did not start in {dir} (see {dir}/server.log): {log}")]
    Start {
        /// The data directory of the cluster.
        dir: PathBuf,
        /// The last lines of the server log.
        log: String,
    },

    /// `pg_ctl stop` failed, so the server may still be running.
    #[error("could not stop PostgreSQL in {dir}: {output}")]
    Stop {
        /// The data directory of the cluster.
        dir: PathBuf,
        /// The last lines pg_ctl printed.
        output: String,
    },
}

impl DevDbError {
    /// Wraps an I/O error with what we were doing, since a bare "permission denied" is not actionable.
    pub(crate) fn io(action: impl Into<String>) -> impl FnOnce(std::io::Error) -> DevDbError {
        let action = action.into();
        move |source| DevDbError::Io { action, source }
    }
}

/// Keeps only the last lines of a program's output so error messages stay readable but still show the cause.
pub(crate) fn tail(text: &str) -> String {
    const LINES: usize = 15;
    let lines: Vec<&str> = text.lines().filter(|line| !line.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(LINES);
    let joined = lines[start..].join("\n");
    if joined.is_empty() {
        "(no output)".to_owned()
    } else {
        joined
    }
}

/// The tail of everything a finished program printed, stdout first.
pub(crate) fn tail_of(output: &std::process::Output) -> String {
    tail(&format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

#[cfg(test)]
mod tests {
    use super::tail;

    #[test]
    fn tail_keeps_the_last_non_blank_lines() {
        let text: String = (1..=40).map(|n| format!("line {n}\n\n")).collect();
        let kept = tail(&text);
        assert!(kept.starts_with("line 26\n"));
        assert!(kept.ends_with("line 40"));
        assert_eq!(kept.lines().count(), 15);
    }

    #[test]
    fn tail_of_nothing_says_so() {
        assert_eq!(tail("\n  \n"), "(no output)");
    }
}
