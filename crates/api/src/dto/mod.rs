//! Wire types: what the API reads and writes, in camelCase JSON, with OpenAPI schemas.

mod api_key;
mod list;
mod staff;
mod trading;

pub use api_key::{ApiKeyBody, CreateApiKeyBody, CreatedApiKeyBody};
pub use list::ListBody;
pub use staff::{
    CreateStaffBody, LoginBody, ResetPasswordBody, SessionBody, StaffBody, StaffWithPasswordBody, UpdateStaffBody,
};
pub use trading::{
    LaunchBody, LaunchedBody, OpenSessionBody, OrderBody, PlayerTradeBody, QuoteBody, SessionOpenedBody,
};
