//! Whether memory stayed flat: for each life of each instance long enough to judge, its
//! RSS at the end against its RSS once warmed up, within a tolerance (a percentage, and
//! never less than a few MiB, so allocator noise on a small heap is not growth).

use crate::deployment::Life;
use crate::settings::Settings;

/// The verdict on one life (in the order of the lives judged).
#[derive(Debug, Clone)]
pub struct Verdict {
    /// RSS once warmed up, KiB (`None`: the life was too short to judge).
    pub warm_kib: Option<u64>,
    /// The largest RSS the verdict allows at the end, KiB.
    pub allowed_kib: Option<u64>,
    /// Whether it grew beyond that.
    pub grew: bool,
}

/// Judges every life.
pub fn judge(lives: &[Life], settings: &Settings) -> Vec<Verdict> {
    lives
        .iter()
        .map(|life| {
            // A life is judged when it ran at least twice its warm-up.
            let judged = life.seconds() >= 2.0 * settings.rss_warmup.as_secs_f64();
            let warm = judged.then(|| life.after_warmup_kib(settings.rss_warmup)).flatten();
            let allowed = warm.map(|warm| {
                let by_percent = warm * settings.rss_tolerance_percent / 100;
                warm + by_percent.max(settings.rss_slack_mib * 1024)
            });
            Verdict {
                warm_kib: warm,
                allowed_kib: allowed,
                grew: allowed.is_some_and(|allowed| life.end_kib() > allowed),
            }
        })
        .collect()
}
