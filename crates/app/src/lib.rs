//! Use cases of the Opinion platform, written over port traits so that they can be
//! tested with mocks and driven by any adapter (HTTP API, admin command).

mod access;
mod api_keys;
mod auth_failure;
mod authenticate;
mod error;
mod operator_currency;
mod operators;
mod password_hasher;
mod principal;
mod reads;
mod session_tokens;
mod sessions;
mod signed_tokens;
mod simulator;
mod staff;
mod trading;
mod wallet_adapters;
mod wallet_test;
mod webhook_attempt;
mod webhook_deliveries;
mod webhook_endpoints;
mod webhook_worker;
mod webhooks;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod test_support_trading;
#[cfg(test)]
mod webhook_tests;

pub mod model;
pub mod ports;

pub use access::{Access, AccessPorts, AccessSettings};
pub use api_keys::{CreatedApiKey, NewApiKey};
pub use auth_failure::AuthFailure;
pub use error::AppError;
pub use operators::CreatedOperator;
pub use password_hasher::PasswordHasher;
pub use principal::{Actor, Principal};
pub use reads::{
    BalanceOperation, BalanceOperationQuery, MarketQuery, OperatorReads, Portfolio, PortfolioLine, PortfolioLink,
    PortfolioLinks, PortfolioTotals, ReadPorts, RedemptionQuery, ResolutionQuery, TradeDetail, TradeHistory,
    TradeQuery, Trending, TrendingMarket, UserQuery,
};
pub use session_tokens::{SessionRef, SessionTokens};
pub use sessions::StartedSession;
pub use simulator::{
    FaultRequest, NewSimulatedUser, OperationReport, ReportStep, SIMULATOR_WALLET_PREFIX, Scenario,
    SimulatedUserChange, SimulatedWalletCall, SimulatedWalletReply, Simulator, SimulatorPorts, StepOutcome,
    UserOperation,
};
pub use staff::{NewStaff, StaffChange, StaffWithPassword};
pub use trading::{
    LaunchRequest, Launched, MAX_MARKET_LIST, NewMarket, OpenedSession, OrderRequest, PlayerPrincipal, PlayerTokens,
    QuoteView, ResolvedMarket, ReviewCase, ReviewDecision, ReviewFinding, Settlement, Trading, TradingPorts,
    TradingSettings, WorkerPass, WorkerSettings, retry_delay,
};
pub use wallet_adapters::{
    SavedWalletAdapter, WalletAdapterChange, WalletAdapterPorts, WalletAdapterSettings, WalletAdapterView,
    WalletAdapters,
};
pub use wallet_test::{
    CheckResult, DEFAULT_TEST_AMOUNT, DEFAULT_TEST_USER, Exchange, Verdict, WalletAdapterTest, WalletTestPorts,
    WalletTestReport, WalletTestRequest,
};
pub use webhook_endpoints::{EndpointWithSecret, MAX_DESCRIPTION_CHARS, NewWebhookEndpoint, WebhookEndpointChange};
pub use webhook_worker::DeliveryRound;
pub use webhooks::{WebhookPorts, WebhookSettings, Webhooks};
