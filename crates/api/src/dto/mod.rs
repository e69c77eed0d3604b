//! Wire types: what the API reads and writes, in camelCase JSON, with OpenAPI schemas.

mod api_key;
mod list;
mod staff;
mod trading;
mod wallet_adapter;
mod webhook_delivery;
mod webhook_endpoint;

pub use api_key::{ApiKeyBody, CreateApiKeyBody, CreatedApiKeyBody};
pub use list::ListBody;
pub use staff::{
    CreateStaffBody, LoginBody, ResetPasswordBody, SessionBody, StaffBody, StaffWithPasswordBody, UpdateStaffBody,
};
pub use trading::{
    LaunchBody, LaunchedBody, OpenSessionBody, OrderBody, PlayerBody, PlayerTradeBody, QuoteBody, SessionOpenedBody,
};
pub use wallet_adapter::{PutWalletAdapterBody, SavedWalletAdapterBody, WalletAdapterBody};
pub use webhook_delivery::{DeliveryQuery, WebhookAttemptBody, WebhookDeliveryBody};
pub use webhook_endpoint::{
    CreateWebhookEndpointBody, UpdateWebhookEndpointBody, WebhookEndpointBody, WebhookEndpointWithSecretBody,
};
