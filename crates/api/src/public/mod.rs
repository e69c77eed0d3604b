//! Routes anyone may call, without a credential: what the platform publishes so that
//! anyone can hold it to its word, declared `Public` in the route table.

pub mod flight;
