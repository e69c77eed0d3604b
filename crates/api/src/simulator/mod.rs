//! The staging simulator (development and staging only): the operator's simulator routes
//! below `/api/operator/simulator`, and the simulated wallet adapter the platform calls.

pub mod available;
pub mod operations;
pub mod simulated_wallet;
pub mod users;
pub mod wallets;
