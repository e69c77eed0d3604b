//! The records the use cases read and write.

mod api_key;
mod event;
mod operator;
mod staff;
mod wallet_adapter;

pub use api_key::ApiKeyRecord;
pub use event::NewEvent;
pub use operator::Operator;
pub use staff::{StaffMember, StaffPatch, StaffSession};
pub use wallet_adapter::WalletAdapterConfig;
