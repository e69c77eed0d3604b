//! The staging simulator: simulated users with their balances and faults, and the
//! simulated wallet's idempotency keys, log and markets.

mod store;
mod users;
mod wallet;
