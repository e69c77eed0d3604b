//! The time source, a port so that expiry rules are tested with a fixed clock.

use time::OffsetDateTime;

/// Tells the current UTC time.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait Clock: Send + Sync {
    /// Now, in UTC.
    fn now(&self) -> OffsetDateTime;
}
