//! Players of every product: launching them (a launch URL with a single-use token), the
//! player sessions the hosted apps open from it, how those sessions end (logout or
//! expiry), each with its webhook event, and the operators' launch settings (the hosts
//! players arrive on and the sites that may frame the app there) and brand. Opinion launches
//! players today; the flight product launches them through the same door.

pub mod ports;

mod acting;
mod branding;
#[cfg(test)]
mod branding_tests;
mod events;
mod launch;
mod launch_settings;
#[cfg(test)]
mod launch_settings_tests;
#[cfg(test)]
mod launch_tests;
mod session;
mod session_end;
#[cfg(test)]
mod session_end_tests;
mod sites;
#[cfg(test)]
mod sites_tests;
mod tokens;

pub use acting::{ActingPlayer, SessionCredential, SessionPlayer};
pub use branding::BrandingChange;
pub use launch::{FLIGHT_PLAY_PATH, LaunchRequest, Launched, MAX_RETURN_URL_CHARS, OPINION_PLAY_PATH, play_path};
pub use launch_settings::LaunchSettingsChange;
pub use session::{OpenedSession, PlayerPrincipal};
pub use tokens::PlayerTokens;

use std::sync::Arc;

use opinion_launch::LaunchHost;
use time::Duration;

use crate::players::ports::{LaunchSettingsStore, PlayerStore, ProductGate};
use crate::ports::{Clock, Random};

/// The ports the player use cases need.
#[derive(Clone)]
pub struct PlayersPorts {
    /// Players, launches and player sessions.
    pub store: Arc<dyn PlayerStore>,
    /// Operators' launch hosts and frame origins.
    pub settings: Arc<dyn LaunchSettingsStore>,
    /// Which products the operator's players may be launched into.
    pub products: Arc<dyn ProductGate>,
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
    /// The host of `public_url`, which serves every operator and is nobody's launch host.
    public_host: Option<LaunchHost>,
}

impl Players {
    /// Builds the service from its ports and settings.
    pub fn new(ports: PlayersPorts, settings: PlayersSettings) -> Self {
        let public_host = host_of(&settings.public_url);
        Self {
            ports,
            settings,
            public_host,
        }
    }

    /// The same service handing out launch URLs under `public_url`, for when the
    /// service's address is known only once it listens.
    pub fn with_public_url(mut self, public_url: &str) -> Self {
        self.settings.public_url = public_url.trim_end_matches('/').to_owned();
        self.public_host = host_of(public_url);
        self
    }
}

/// The launch-host form of a URL's host, if it has one that could be a launch host.
fn host_of(url: &str) -> Option<LaunchHost> {
    let parsed = url::Url::parse(url).ok()?;
    LaunchHost::of_request(parsed.host_str()?)
}
