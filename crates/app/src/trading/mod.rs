//! The trading use cases: launching players, their sessions, quotes, buys and sells with
//! the operator's wallet, and platform staff's market administration. Each use case is
//! an `impl Trading` block in its own file; what happens after trading (resolution,
//! payouts, the wallet worker, manual review) is `Settlement`'s, in its own files.

mod buy;
#[cfg(test)]
mod buy_rules;
mod events;
#[cfg(test)]
mod fixtures;
mod launch;
#[cfg(test)]
mod launch_rules;
mod markets;
mod opening;
mod order;
mod player;
mod player_tokens;
mod quote;
mod resolution;
mod review;
mod sell;
#[cfg(test)]
mod sell_rules;
mod settle_buy;
mod settle_sell;
mod settlement;
mod settlement_events;
#[cfg(test)]
mod settlement_tests;
mod wallet_call;
mod wallet_worker;

use std::sync::Arc;

use time::Duration;

use crate::ports::{Clock, OperatorStore, Random, TradingStore, WalletAdapterStore, WalletGateway};

pub use launch::{LaunchRequest, Launched};
pub use markets::{MAX_MARKET_LIST, NewMarket};
pub use order::{OrderRequest, QuoteView};
pub use player::{OpenedSession, PlayerPrincipal};
pub use player_tokens::PlayerTokens;
pub use resolution::ResolvedMarket;
pub use review::{ReviewCase, ReviewDecision, ReviewFinding};
pub use settlement::{Settlement, WorkerSettings};
pub use wallet_worker::{WorkerPass, retry_delay};

/// The ports the trading use cases need.
#[derive(Clone)]
pub struct TradingPorts {
    /// Markets, players, trades, wallet operations.
    pub store: Arc<dyn TradingStore>,
    /// Operators (their currency).
    pub operators: Arc<dyn OperatorStore>,
    /// Operators' wallet adapter configurations.
    pub wallet_adapters: Arc<dyn WalletAdapterStore>,
    /// The wallet client.
    pub wallet: Arc<dyn WalletGateway>,
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Ids.
    pub random: Arc<dyn Random>,
}

/// Settings of the trading use cases, read from configuration at start-up.
#[derive(Clone)]
pub struct TradingSettings {
    /// Where the hosted app is served; launch URLs start with it.
    pub public_url: String,
    /// How long a launch token can be exchanged.
    pub launch_ttl: Duration,
    /// How long a player session lasts.
    pub player_session_ttl: Duration,
    /// Signs launch and player session tokens.
    pub tokens: PlayerTokens,
}

/// Trading in the hosted app and its administration.
#[derive(Clone)]
pub struct Trading {
    pub(crate) ports: TradingPorts,
    pub(crate) settings: TradingSettings,
}

impl Trading {
    /// Builds the service from its ports and settings.
    pub fn new(ports: TradingPorts, settings: TradingSettings) -> Self {
        Self { ports, settings }
    }

    /// The same service handing out launch URLs under `public_url`, for when the
    /// service's address is known only once it listens.
    pub fn with_public_url(mut self, public_url: &str) -> Self {
        self.settings.public_url = public_url.trim_end_matches('/').to_owned();
        self
    }
}
