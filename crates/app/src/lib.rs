//! Use cases of the Opinion platform, written over port traits so that they can be
//! tested with mocks and driven by any adapter (HTTP API, admin command).

mod access;
mod api_keys;
mod auth_failure;
mod authenticate;
mod error;
mod operators;
mod password_hasher;
mod principal;
mod reads;
mod session_tokens;
mod sessions;
mod staff;

#[cfg(test)]
mod test_support;

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
pub use staff::{NewStaff, StaffChange, StaffWithPassword};
