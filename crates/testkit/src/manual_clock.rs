//! `ManualClock`: the app's clock port under the test's control, so retry schedules are
//! tested by moving time, not by sleeping.

use std::sync::Mutex;

use opinion_app::ports::Clock;
use time::{Duration, OffsetDateTime};

/// A clock that reads what the test set.
#[derive(Debug)]
pub struct ManualClock(Mutex<OffsetDateTime>);

impl ManualClock {
    /// A clock showing `at`.
    pub fn new(at: OffsetDateTime) -> Self {
        Self(Mutex::new(at))
    }

    /// Moves the clock to `at`.
    pub fn set(&self, at: OffsetDateTime) {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = at;
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
