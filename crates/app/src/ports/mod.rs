//! The ports: what the use cases need from the outside world, in their own terms.
//! Adapters implement them; tests mock them (`mock` feature, mockall).

mod clock;
mod market_visibility;
mod operator_reads;
mod random;
mod store;
mod wallet;

pub use clock::Clock;
pub use market_visibility::{MarketVisibilityStore, VisibilityOutcome};
pub use operator_reads::{
    HeldPosition, MarketActivity, MarketFilter, MarketStage, OperatorReadStore, RedemptionFilter, ResolutionFilter,
    TimeRange, TradeFilter, UserFilter, WalletOperationFilter,
};
pub use random::Random;
pub use store::{ApiKeyStore, OperatorStore, SessionStore, StaffStore, StoreError};
pub use wallet::{MutationOutcome, WalletAdapterStore, WalletAdapterTarget, WalletGateway};

#[cfg(any(test, feature = "mock"))]
pub use clock::MockClock;
#[cfg(any(test, feature = "mock"))]
pub use market_visibility::MockMarketVisibilityStore;
#[cfg(any(test, feature = "mock"))]
pub use operator_reads::MockOperatorReadStore;
#[cfg(any(test, feature = "mock"))]
pub use random::MockRandom;
#[cfg(any(test, feature = "mock"))]
pub use store::{MockApiKeyStore, MockOperatorStore, MockSessionStore, MockStaffStore};
#[cfg(any(test, feature = "mock"))]
pub use wallet::{MockWalletAdapterStore, MockWalletGateway};
