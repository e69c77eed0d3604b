//! `/simulator-wallet/{operatorId}/v1/…`: the simulated wallet adapter, outside the route
//! table; its signature is its credential.

pub mod handlers;
