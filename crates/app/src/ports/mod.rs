//! The ports: what the use cases need from the outside world, in their own terms.
//! Adapters implement them; tests mock them (`mock` feature, mockall).

mod clock;
mod random;
mod store;
mod wallet;
mod wallet_adapters;

pub use clock::Clock;
pub use random::Random;
pub use store::{ApiKeyStore, OperatorStore, SessionStore, StaffStore, StoreError};
pub use wallet::{BalanceOutcome, MutationOutcome, WalletAdapterStore, WalletAdapterTarget, WalletGateway};
pub use wallet_adapters::WalletAdapterConfigStore;

#[cfg(any(test, feature = "mock"))]
pub use clock::MockClock;
#[cfg(any(test, feature = "mock"))]
pub use random::MockRandom;
#[cfg(any(test, feature = "mock"))]
pub use store::{MockApiKeyStore, MockOperatorStore, MockSessionStore, MockStaffStore};
#[cfg(any(test, feature = "mock"))]
pub use wallet::{MockWalletAdapterStore, MockWalletGateway};
#[cfg(any(test, feature = "mock"))]
pub use wallet_adapters::MockWalletAdapterConfigStore;
