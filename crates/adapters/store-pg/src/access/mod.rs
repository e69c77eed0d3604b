//! Access: operators, their API keys, staff members, staff sessions and the staff login
//! throttling counters.

mod api_keys;
mod login_attempts;
mod operators;
mod rows;
mod sessions;
mod staff;
