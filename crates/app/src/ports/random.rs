//! The entropy source, a port so that ids and secrets are deterministic in tests.

use ulid::Ulid;

/// Hands out new ids and secret material from a cryptographically secure source.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait Random: Send + Sync {
    /// A new time-ordered id.
    fn ulid(&self) -> Ulid;
    /// 32 uniformly random bytes for secrets.
    fn secret_bytes(&self) -> [u8; 32];
}
