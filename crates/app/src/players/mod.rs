//! Players of every product: launching them (a launch URL with a single-use token) and
//! the player sessions the hosted apps open from it. Opinion launches players today;
//! the flight product launches them through the same door.

mod launch;
#[cfg(test)]
mod launch_tests;
mod session;
mod tokens;

pub use launch::{LaunchRequest, Launched};
pub use session::{OpenedSession, PlayerPrincipal};
pub use tokens::PlayerTokens;
