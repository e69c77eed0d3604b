//! The service's resident memory, read from `/proc/<pid>/status`: the peak is reset
//! before each scenario (`clear_refs` 5) so `VmHWM` afterwards is that scenario's peak;
//! a sampler of `VmRSS` backs it up where the reset is not allowed.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::task::JoinHandle;

/// How often the sampler reads `VmRSS`.
const SAMPLE_EVERY: Duration = Duration::from_millis(50);

/// Watches one process's RSS while a scenario runs.
pub struct MemoryWatch {
    pid: u32,
    reset: bool,
    sampled_peak_kib: Arc<AtomicU64>,
    sampler: JoinHandle<()>,
}

impl MemoryWatch {
    /// Resets the kernel's peak for `pid` (when permitted) and starts sampling.
    pub fn start(pid: u32) -> Self {
        let reset = std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok();
        let sampled_peak_kib = Arc::new(AtomicU64::new(0));
        let peak = sampled_peak_kib.clone();
        let sampler = tokio::spawn(async move {
            loop {
                if let Some(rss) = status_kib(pid, "VmRSS:") {
                    peak.fetch_max(rss, Ordering::Relaxed);
                }
                tokio::time::sleep(SAMPLE_EVERY).await;
            }
        });
        Self {
            pid,
            reset,
            sampled_peak_kib,
            sampler,
        }
    }

    /// Stops sampling; the peak RSS in KiB over the watch.
    pub fn finish(self) -> u64 {
        self.sampler.abort();
        let sampled = self.sampled_peak_kib.load(Ordering::Relaxed);
        let kernel = if self.reset {
            status_kib(self.pid, "VmHWM:").unwrap_or(0)
        } else {
            0
        };
        sampled.max(kernel)
    }
}

/// The process's resident memory now, KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    status_kib(pid, "VmRSS:")
}

/// The process's peak resident memory so far (`VmHWM`), KiB.
pub fn peak_kib(pid: u32) -> Option<u64> {
    status_kib(pid, "VmHWM:")
}

/// One `kB` line of `/proc/<pid>/status`.
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    line[field.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}
