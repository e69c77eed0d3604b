//! The real clock and entropy behind the app's `Clock` and `Random` ports.

use opinion_app::ports::{Clock, Random};
use rand::RngCore;
use rand::rngs::OsRng;
use time::OffsetDateTime;
use ulid::Ulid;

/// The system clock, in UTC, at microsecond precision: what PostgreSQL stores, so a
/// time read back equals the time written.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        let now = OffsetDateTime::now_utc();
        now.replace_microsecond(now.microsecond()).unwrap_or(now)
    }
}

/// The operating system's cryptographically secure generator.
pub struct OsRandom;

impl Random for OsRandom {
    fn ulid(&self) -> Ulid {
        Ulid::new()
    }

    fn secret_bytes(&self) -> [u8; 32] {
        let mut bytes = [0; 32];
        OsRng.fill_bytes(&mut bytes);
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_has_no_sub_microsecond_part() {
        assert_eq!(SystemClock.now().nanosecond() % 1_000, 0);
    }
}
