//! How long a delivery worker with a free slot waits before claiming again. A worker
//! whose last claim found work is likely to find more soon (events arrive in streams), so
//! it looks again after [`ClaimPacing::BRISK`]; each claim that finds nothing doubles the
//! wait, up to the configured poll interval, so an idle service costs the database a
//! claim per worker per poll interval and a busy one delivers within tens of
//! milliseconds of the commit.

use std::time::Duration;

/// The wait between claims of one worker, brisk while work arrives, slowing to the poll
/// interval while none does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimPacing {
    poll: Duration,
    wait: Duration,
}

impl ClaimPacing {
    /// The wait after a claim that found work: short enough that a stream of events is
    /// delivered well within the lag a receiver should expect, long enough that a worker
    /// between two events claims a few dozen times a second at most.
    pub const BRISK: Duration = Duration::from_millis(20);

    /// A pacing that starts idle, waiting `poll` between empty claims.
    pub fn new(poll: Duration) -> Self {
        Self { poll, wait: poll }
    }

    /// Notes what the last claim found and answers how long to wait before the next one
    /// while a slot stays free.
    pub fn after_claim(&mut self, found: usize) -> Duration {
        self.wait = if found > 0 {
            Self::BRISK.min(self.poll)
        } else {
            (self.wait * 2).min(self.poll)
        };
        self.wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLL: Duration = Duration::from_secs(1);

    #[test]
    fn an_idle_worker_waits_the_poll_interval() {
        let mut pacing = ClaimPacing::new(POLL);
        assert_eq!(pacing.after_claim(0), POLL);
        assert_eq!(pacing.after_claim(0), POLL);
    }

    #[test]
    fn a_claim_that_found_work_makes_the_next_wait_brisk() {
        let mut pacing = ClaimPacing::new(POLL);
        assert_eq!(pacing.after_claim(3), ClaimPacing::BRISK);
        assert_eq!(pacing.after_claim(1), ClaimPacing::BRISK);
    }

    #[test]
    fn empty_claims_double_the_wait_back_to_the_poll_interval() {
        let mut pacing = ClaimPacing::new(POLL);
        pacing.after_claim(1);
        let waits: Vec<u128> = (0..7).map(|_| pacing.after_claim(0).as_millis()).collect();
        assert_eq!(waits, [40, 80, 160, 320, 640, 1000, 1000]);
        assert_eq!(pacing.after_claim(2), ClaimPacing::BRISK);
    }

    #[test]
    fn a_poll_interval_shorter_than_brisk_is_kept() {
        let poll = Duration::from_millis(10);
        let mut pacing = ClaimPacing::new(poll);
        assert_eq!(pacing.after_claim(5), poll);
        assert_eq!(pacing.after_claim(0), poll);
    }
}
