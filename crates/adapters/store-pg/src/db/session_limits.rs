//! The time limits PostgreSQL holds every session of the service to, so a stuck query, a
//! lock queue or a transaction left open cannot keep a connection (and the locks it
//! holds) forever. They travel as startup `options` of each connection, so they are in
//! force from its first statement, whichever TLS connector or pool opens it.

use std::fmt;
use std::time::Duration;

/// `statement_timeout`, `lock_timeout` and `idle_in_transaction_session_timeout` of a
/// session; a zero duration is PostgreSQL's "no limit".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// Longest a single statement may run.
    pub statement: Duration,
    /// Longest a statement may wait for a lock (advisory locks included).
    pub lock: Duration,
    /// Longest a transaction may sit open with no statement running; the session is
    /// ended past it.
    pub idle_in_transaction: Duration,
}

impl SessionLimits {
    /// The service's defaults: far above any request's statements (milliseconds) and the
    /// longest worker batch, short enough that a stuck session is noticed.
    pub const DEFAULT: SessionLimits = SessionLimits {
        statement: Duration::from_secs(30),
        lock: Duration::from_secs(10),
        idle_in_transaction: Duration::from_secs(60),
    };

    /// The limits of the admin commands (`opinion admin …`, statement exports, data key
    /// rotation) and the migrations: no statement limit, because platform staff run them
    /// and watch them and a month's export or a migration over a large table may take
    /// longer than any request; the lock and idle limits of `base` still hold, so they
    /// never queue the service's writes behind them for long nor hold a forgotten
    /// transaction open.
    pub const fn unbounded_statements(base: SessionLimits) -> SessionLimits {
        SessionLimits {
            statement: Duration::ZERO,
            ..base
        }
    }

    /// The startup `options` setting them (`-c name=milliseconds`).
    pub(crate) fn options(&self) -> String {
        format!(
            "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={}",
            self.statement.as_millis(),
            self.lock.as_millis(),
            self.idle_in_transaction.as_millis()
        )
    }
}

impl Default for SessionLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for SessionLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |limit: Duration| {
            if limit.is_zero() {
                "none".to_owned()
            } else {
                format!("{limit:?}")
            }
        };
        write!(
            f,
            "statement {}, lock {}, idle in transaction {}",
            shown(self.statement),
            shown(self.lock),
            shown(self.idle_in_transaction)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_set_each_limit_in_milliseconds() {
        assert_eq!(
            SessionLimits::DEFAULT.options(),
            "-c statement_timeout=30000 -c lock_timeout=10000 -c idle_in_transaction_session_timeout=60000"
        );
        let admin = SessionLimits::unbounded_statements(SessionLimits::DEFAULT);
        assert_eq!(admin.statement, Duration::ZERO);
        assert_eq!(admin.lock, SessionLimits::DEFAULT.lock);
        assert_eq!(admin.to_string(), "statement none, lock 10s, idle in transaction 60s");
    }
}
