//! The records the access use cases read and write.

mod api_key;
mod operator;
mod staff;

pub use api_key::ApiKeyRecord;
pub use operator::Operator;
pub use staff::{StaffMember, StaffPatch, StaffSession};
