//! `/api/operator/launch`: a player's entry into the hosted app.

pub mod dto;
pub mod handlers;
