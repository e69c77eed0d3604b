//! Players of every product: launching them (a launch URL with a single-use token), the
//! player sessions the hosted apps open from it, and how those sessions end (logout or
//! expiry), each with its webhook event. Opinion launches players today;
//! the flight product launches them through the same door.

pub mod ports;

mod events;
mod launch;
#[cfg(test)]
mod launch_tests;
mod session;
mod session_end;
#[cfg(test)]
mod session_end_tests;
mod tokens;

pub use launch::{LaunchRequest, Launched};
pub use session::{OpenedSession, PlayerPrincipal};
pub use tokens::PlayerTokens;

use std::sync::Arc;

use time::Duration;

use crate::players::ports::PlayerStore;
use crate::ports::{Clock, Random};

/// The ports the player use cases need.
#[derive(Clone)]
pub struct PlayersPorts {
    /// Players, launches and player sessions.
    pub store: Arc<dyn PlayerStore>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
}

/// Settings of the player use cases, read from configuration at start-up.
#[derive(Clone)]
pub struct PlayersSettings {
    /// Where the hosted app is served; launch URLs start with it.
    pub public_url: String,
    /// How long a launch token can be exchanged.
    pub launch_ttl: Duration,
    /// How long a player session lasts.
    pub player_session_ttl: Duration,
    /// Signs launch and player session tokens.
    pub tokens: PlayerTokens,
}

/// Launching players and their sessions, for every product.
#[derive(Clone)]
pub struct Players {
    pub(crate) ports: PlayersPorts,
    pub(crate) settings: PlayersSettings,
}

impl Players {
    /// Builds the service from its ports and settings.
    pub fn new(ports: PlayersPorts, settings: PlayersSettings) -> Self {
        Self { ports, settings }
    }

    /// The same service handing out launch URLs under `public_url`, for when the
    /// service's address is known only once it listens.
    pub fn with_public_url(mut self, public_url: &str) -> Self {
        self.settings.public_url = public_url.trim_end_matches('/').to_owned();
        self
    }
}
