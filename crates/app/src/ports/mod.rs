//! The ports: what the use cases need from the outside world, in their own terms.
//! Adapters implement them; tests mock them (`mock` feature, mockall).

mod clock;
mod market_visibility;
mod operator_reads;
mod random;
mod settlement;
mod store;
mod trading;
mod wallet;
mod wallet_adapters;
mod webhook_store;
mod webhook_transport;

pub use clock::Clock;
pub use market_visibility::{MarketVisibilityStore, VisibilityOutcome};
pub use operator_reads::{
    HeldPosition, MarketActivity, MarketFilter, MarketStage, OperatorReadStore, RedemptionFilter, ResolutionFilter,
    TimeRange, TradeFilter, UserFilter, WalletOperationFilter,
};
pub use random::Random;
pub use settlement::{MarketOperator, RedeemablePosition, ResolutionPlan, SettlementStore};
pub use store::{ApiKeyStore, OperatorStore, SessionStore, StaffStore, StoreError};
pub use trading::{
    NewOperation, NewTrade, OpenTrade, OperationUpdate, PoolChange, PositionChange, RedemptionUpdate, TradeUpdate,
    TradingChange, TradingStore,
};
pub use wallet::{BalanceOutcome, MutationOutcome, WalletAdapterStore, WalletAdapterTarget, WalletGateway};
pub use wallet_adapters::WalletAdapterConfigStore;
pub use webhook_store::{Claim, ReplayTarget, WebhookStore};
pub use webhook_transport::{DestinationRefused, OutboundRequest, TransportResponse, WebhookTransport};

#[cfg(any(test, feature = "mock"))]
pub use clock::MockClock;
#[cfg(any(test, feature = "mock"))]
pub use market_visibility::MockMarketVisibilityStore;
#[cfg(any(test, feature = "mock"))]
pub use operator_reads::MockOperatorReadStore;
#[cfg(any(test, feature = "mock"))]
pub use random::MockRandom;
#[cfg(any(test, feature = "mock"))]
pub use settlement::MockSettlementStore;
#[cfg(any(test, feature = "mock"))]
pub use store::{MockApiKeyStore, MockOperatorStore, MockSessionStore, MockStaffStore};
#[cfg(any(test, feature = "mock"))]
pub use trading::MockTradingStore;
#[cfg(any(test, feature = "mock"))]
pub use wallet::{MockWalletAdapterStore, MockWalletGateway};
#[cfg(any(test, feature = "mock"))]
pub use wallet_adapters::MockWalletAdapterConfigStore;
#[cfg(any(test, feature = "mock"))]
pub use webhook_store::MockWebhookStore;
#[cfg(any(test, feature = "mock"))]
pub use webhook_transport::MockWebhookTransport;
