//! The records the use cases read and write.

mod api_key;
mod event;
mod operator;
mod staff;

pub use api_key::ApiKeyRecord;
pub use event::NewEvent;
pub use operator::Operator;
pub use staff::{StaffMember, StaffPatch, StaffSession};
