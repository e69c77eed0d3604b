//! Wire types: what the API reads and writes, in camelCase JSON, with OpenAPI schemas.

mod api_key;
mod balance_operation;
mod list;
mod market;
mod payout;
mod read_queries;
mod staff;
mod trade;
mod trading;
mod user;
mod wallet_adapter;
mod webhook_delivery;
mod webhook_endpoint;

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
pub use trading::{
    LaunchBody, LaunchedBody, OpenSessionBody, OrderBody, PlayerBody, PlayerTradeBody, QuoteBody, SessionOpenedBody,
};
pub use user::{
    PortfolioBody, PortfolioLinkBody, PortfolioLinkRequestBody, PortfolioTotalsBody, PositionBody, UserBody,
};
pub use wallet_adapter::{PutWalletAdapterBody, SavedWalletAdapterBody, WalletAdapterBody};
pub use webhook_delivery::{DeliveryQuery, WebhookAttemptBody, WebhookDeliveryBody};
pub use webhook_endpoint::{
    CreateWebhookEndpointBody, UpdateWebhookEndpointBody, WebhookEndpointBody, WebhookEndpointWithSecretBody,
};
