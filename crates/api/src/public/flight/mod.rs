//! The flight game's published seed chains (`/api/public/flight/chains`).

pub mod dto;
pub mod handlers;
