//! Access: operators and their API keys, staff members, staff sessions, the playground
//! console setting, and tenant isolation between operators.

mod api_keys;
mod caps;
mod isolation;
mod login_attempts;
mod playground;
mod sessions;
mod staff;
