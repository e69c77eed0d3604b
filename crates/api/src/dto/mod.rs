//! Wire types: what the API reads and writes, in camelCase JSON, with OpenAPI schemas.

mod api_key;
mod list;
mod staff;
mod wallet_adapter;

pub use api_key::{ApiKeyBody, CreateApiKeyBody, CreatedApiKeyBody};
pub use list::ListBody;
pub use staff::{
    CreateStaffBody, LoginBody, ResetPasswordBody, SessionBody, StaffBody, StaffWithPasswordBody, UpdateStaffBody,
};
pub use wallet_adapter::{PutWalletAdapterBody, SavedWalletAdapterBody, WalletAdapterBody};
