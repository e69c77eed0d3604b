//! Access: operators and their API keys, staff members, staff sessions, and tenant
//! isolation between operators.

mod api_keys;
mod isolation;
mod login_attempts;
mod sessions;
mod staff;
