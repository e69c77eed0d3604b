//! Access: operators, their API keys, staff members and staff sessions.

mod api_keys;
mod operators;
mod rows;
mod sessions;
mod staff;
