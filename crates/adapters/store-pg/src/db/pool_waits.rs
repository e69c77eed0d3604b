//! What waiting for a pooled connection has cost since start-up, counted as each request
//! gets its connection, for the metrics scrape.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Counters of connection checkouts; shared by every clone of the store.
#[derive(Debug, Default)]
pub(crate) struct PoolWaits {
    acquired: AtomicU64,
    timed_out: AtomicU64,
    wait_micros: AtomicU64,
}

impl PoolWaits {
    /// A checkout that got its connection after `waited`.
    pub(crate) fn acquired(&self, waited: Duration) {
        self.acquired.fetch_add(1, Ordering::Relaxed);
        self.add_wait(waited);
    }

    /// A checkout that gave up (or failed) after `waited`.
    pub(crate) fn gave_up(&self, waited: Duration) {
        self.timed_out.fetch_add(1, Ordering::Relaxed);
        self.add_wait(waited);
    }

    fn add_wait(&self, waited: Duration) {
        let micros = u64::try_from(waited.as_micros()).unwrap_or(u64::MAX);
        self.wait_micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// Connections handed out, checkouts given up, and the total wait.
    pub(crate) fn totals(&self) -> (u64, u64, Duration) {
        (
            self.acquired.load(Ordering::Relaxed),
            self.timed_out.load(Ordering::Relaxed),
            Duration::from_micros(self.wait_micros.load(Ordering::Relaxed)),
        )
    }
}
