//! The records the use cases read and write.

mod api_key;
mod branding;
mod event;
mod launch;
mod launch_settings;
mod market;
mod operator;
mod playground_setting;
mod position;
mod redemption;
mod simulator;
mod staff;
mod trade;
mod user;
mod wallet_adapter;
mod wallet_operation;
mod webhook_delivery;
mod webhook_endpoint;

pub use api_key::{ApiKeyRecord, ApiKeyUse};
pub use branding::OperatorBranding;
pub use event::{NewEvent, rfc3339};
pub use launch::{Launch, PlayerSession, SessionEnd, SessionEnding};
pub use launch_settings::{LaunchSettings, LaunchSite};
pub use market::{Market, OperatorMarket};
pub use operator::Operator;
pub use playground_setting::PlaygroundSetting;
pub use position::PositionRecord;
pub use redemption::{MarketResolution, Redemption};
pub use simulator::{LogDelivery, SimulatedFault, SimulatedUser, WalletLogEntry};
pub use staff::{StaffMember, StaffPatch, StaffSession};
pub use trade::Trade;
pub use user::User;
pub use wallet_adapter::WalletAdapterConfig;
pub use wallet_operation::{WalletOperationRecord, WalletOperationStep};
pub use webhook_delivery::{
    AttemptRecord, AttemptReport, AttemptRequest, AttemptTarget, DeliveryDetail, DeliveryFilter, DeliveryRecord,
};
pub use webhook_delivery::{EndpointDisabling, StoredEvent};
pub use webhook_endpoint::{EndpointSecrets, EndpointUpdate, WebhookEndpoint};
