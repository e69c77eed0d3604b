//! The ports every room shares: time, randomness, how a store fails and how a part of a
//! use case runs in one transaction. Each feature's own ports live in its room
//! (`access::ports`, `webhooks::ports`, …). Adapters implement them; tests mock them
//! (`mock` feature, mockall).

mod clock;
mod random;
mod store_error;
mod transactions;

pub use clock::Clock;
pub use random::Random;
pub use store_error::{ChangedRecord, StoreError, TimeLimit, UniqueKey};
pub use transactions::{TransactionWork, Transactions, in_one_transaction};

#[cfg(any(test, feature = "mock"))]
pub use clock::MockClock;
#[cfg(any(test, feature = "mock"))]
pub use random::MockRandom;
#[cfg(any(test, feature = "mock"))]
pub use transactions::WithoutTransactions;
