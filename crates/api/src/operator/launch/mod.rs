//! `/api/operator/launch`: a player's entry into the hosted app.

pub mod handlers;
