//! Wire types: what the API reads and writes, in camelCase JSON, with OpenAPI schemas.

mod api_key;
mod balance_operation;
mod list;
mod market;
mod payout;
mod read_queries;
mod staff;
mod trade;
mod user;

pub use api_key::{ApiKeyBody, CreateApiKeyBody, CreatedApiKeyBody};
pub use balance_operation::{BalanceOperationBody, StepBody};
pub use list::ListBody;
pub use market::{MarketBody, TrendingBody, TrendingMarketBody, TrendingScoreBody, VisibilityBody};
pub use payout::{RedemptionBody, ResolutionBody};
pub use read_queries::{
    BalanceOperationsQuery, HistoryQuery, MarketsQuery, PortfolioLinkQuery, PortfolioQuery, RedemptionsQuery,
    ResolutionsQuery, TradesQuery, TrendingQuery, UsersQuery,
};
pub use staff::{
    CreateStaffBody, LoginBody, ResetPasswordBody, SessionBody, StaffBody, StaffWithPasswordBody, UpdateStaffBody,
};
pub use trade::{TradeBody, TradeDetailBody};
pub use user::{
    PortfolioBody, PortfolioLinkBody, PortfolioLinkRequestBody, PortfolioTotalsBody, PositionBody, UserBody,
};
