//! Use cases of the Opinion platform, written over port traits so that they can be
//! tested with mocks and driven by any adapter (HTTP API, admin command).
//!
//! One room per feature: `access` (operators, keys, staff, sessions), `players`
//! (launch and player sessions, shared by every product), `wallet` (the operator's
//! wallet adapter and its full-contract test), `webhooks`, `opinion` (trading,
//! settlement, reads), `simulator`. Ports shared by every room are in `ports`.

mod access;
mod error;
mod opinion;
mod players;
mod signed_tokens;
mod simulator;
mod wallet;
mod webhooks;

#[cfg(test)]
mod test_support;

pub mod model;
pub mod ports;

pub use access::{
    Access, AccessPorts, AccessSettings, Actor, AuthFailure, CreatedApiKey, CreatedOperator, NewApiKey, NewStaff,
    PasswordHasher, Principal, SessionRef, SessionTokens, StaffChange, StaffWithPassword, StartedSession,
};
pub use error::AppError;
pub use opinion::reads::{
    BalanceOperation, BalanceOperationQuery, MarketQuery, OperatorReads, Portfolio, PortfolioLine, PortfolioLink,
    PortfolioLinks, PortfolioTotals, ReadPorts, RedemptionQuery, ResolutionQuery, TradeDetail, TradeHistory,
    TradeQuery, Trending, TrendingMarket, UserQuery,
};
pub use opinion::settlement::{
    MAX_MARKET_LIST, NewMarket, ResolvedMarket, ReviewCase, ReviewDecision, ReviewFinding, Settlement, WorkerPass,
    WorkerSettings, retry_delay,
};
pub use opinion::trading::{OrderRequest, QuoteView, Trading, TradingPorts, TradingSettings};
pub use players::{LaunchRequest, Launched, OpenedSession, PlayerPrincipal, PlayerTokens};
pub use simulator::{
    FaultRequest, NewSimulatedUser, OperationReport, ReportStep, SIMULATOR_WALLET_PREFIX, Scenario,
    SimulatedUserChange, SimulatedWalletCall, SimulatedWalletReply, Simulator, SimulatorPorts, StepOutcome,
    UserOperation,
};
pub use wallet::{
    CheckResult, DEFAULT_TEST_AMOUNT, DEFAULT_TEST_USER, Exchange, SavedWalletAdapter, Verdict, WalletAdapterChange,
    WalletAdapterPorts, WalletAdapterSettings, WalletAdapterTest, WalletAdapterView, WalletAdapters, WalletTestPorts,
    WalletTestReport, WalletTestRequest,
};
pub use webhooks::{
    DeliveryRound, EndpointWithSecret, MAX_DESCRIPTION_CHARS, NewWebhookEndpoint, WebhookEndpointChange, WebhookPorts,
    WebhookSettings, Webhooks,
};
