//! The hosted app's player API (`/api/player/…`), authenticated by player sessions. It is
//! the hosted app's own API, not part of the operator contract.

pub mod board_dto;
pub mod branding;
pub mod dto;
pub mod flight;
pub mod flight_dto;
pub mod flight_fairness;
pub mod flight_feed;
pub mod handlers;
pub mod live_listener;
