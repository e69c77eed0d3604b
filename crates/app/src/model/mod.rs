//! The records the use cases read and write.

mod api_key;
mod event;
mod operator;
mod staff;
mod webhook_delivery;
mod webhook_endpoint;

pub use api_key::ApiKeyRecord;
pub use event::NewEvent;
pub use operator::Operator;
pub use staff::{StaffMember, StaffPatch, StaffSession};
pub use webhook_delivery::{AttemptRecord, AttemptReport, AttemptTarget, DeliveryFilter, DeliveryRecord};
pub use webhook_delivery::{EndpointDisabling, StoredEvent};
pub use webhook_endpoint::{EndpointSecrets, EndpointUpdate, WebhookEndpoint};
