//! The ports every room shares: time, randomness and how a store fails. Each feature's
//! own ports live in its room (`access::ports`, `webhooks::ports`, …). Adapters
//! implement them; tests mock them (`mock` feature, mockall).

mod clock;
mod random;
mod store_error;

pub use clock::Clock;
pub use random::Random;
pub use store_error::{ChangedRecord, StoreError, TimeLimit, UniqueKey};

#[cfg(any(test, feature = "mock"))]
pub use clock::MockClock;
#[cfg(any(test, feature = "mock"))]
pub use random::MockRandom;
